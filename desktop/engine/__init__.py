"""The research engine (docs/architecture.md §3): runs, phases, checkpoints and events, with no Qt."""
