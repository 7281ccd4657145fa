"""Rabbithole: an offline desktop research assistant over local PDFs."""

import time

__version__ = "0.1.0"
# When the program started (its first own import): a command's start-up counts against a run's time budget.
STARTED = time.monotonic()
