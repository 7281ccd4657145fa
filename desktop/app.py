"""Entry point and composition root: ``rabbithole`` with a command runs the command line; without one
it opens the desktop window."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    from desktop import cli

    return cli.main(args)
