"""Search: the lexical (FTS5/BM25) and dense (embeddings, Chroma) sides of a knowledge base, their fusion, and
the retrieval primitives the engine asks for while reading. (docs/architecture.md §2)"""
