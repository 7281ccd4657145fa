"""The one bridge between the Qt window and the engine: work runs off the GUI thread, results and
engine events come back as Qt signals (docs/architecture.md §5)."""
