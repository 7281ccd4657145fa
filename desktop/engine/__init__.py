"""The research engine (DESIGN §5): runs, phases, checkpoints and events, with no Qt."""
