"""How close in meaning a text is to others, across languages: the knowledge base's own embedder (the
multilingual model its passages were embedded with), queries against passages, by cosine — a dot product,
since every embedder returns L2-normalised vectors (``kb/search/embeddings.py``), as ``KnowledgeBase.rank``
relies on too."""

from __future__ import annotations

from desktop.kb.database import KnowledgeBase

Meaning = dict[int, dict[str, float]]  # a task's id -> each text's closeness in meaning to it


def closeness(kb: KnowledgeBase, asked: dict[int, str], texts: list[str]) -> Meaning:
    """For each of ``asked`` (a task's id -> its words, embedded as a query), the cosine of each of ``texts``
    (embedded as passages). Blocking: runs in the knowledge base's thread."""
    passages = kb.embedder.embed_passages(texts)
    queries = kb.embedder.embed_queries(list(asked.values()))
    return {task_id: dict(zip(texts, (passages @ q).tolist())) for task_id, q in zip(asked, queries)}
