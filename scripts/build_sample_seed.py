"""Recompute kb/sample-embeddings.npz after the sample PDFs or the chunking changed.

    .venv/bin/python scripts/build_sample_seed.py [DATA_DIR]

Builds (or updates) the sample database — in DATA_DIR, else a temporary folder — with the offline
embedder and stores every chunk's vector, so a user's first start only reads the PDFs. The vectors of
the seed it replaces are reused: only chunks the change made new are embedded (all of them: minutes).
"""

from __future__ import annotations

import sys
import tempfile

from desktop.cli.console import ProgressPrinter
from desktop.kb.database import KnowledgeBase
from desktop.kb.storage.registry import SAMPLE_DB
from desktop.kb.ingestion.seed import SEED_NAME, load_seed, write_seed
from desktop.paths import resolve_paths, sample_kb_dir
from desktop.settings import Settings


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        paths = resolve_paths(sys.argv[1] if len(sys.argv) > 1 else tmp).ensure()
        with KnowledgeBase.open(paths, Settings(), SAMPLE_DB, create=True, embedder="offline") as kb:
            reused = load_seed(kb.embedder.cache, sample_kb_dir() / SEED_NAME, kb.embedder.model_id)
            print(f"{reused} vectors of the current seed reused where their chunk is unchanged")
            report = kb.ingest([sample_kb_dir()], progress=ProgressPrinter())
            if report.pending_embeddings or report.embed_error:
                print(f"embedding incomplete: {report.embed_error}", file=sys.stderr)
                return 1
            n = write_seed(kb, sample_kb_dir() / SEED_NAME)
    print(f"wrote {n} vectors to {sample_kb_dir() / SEED_NAME}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
