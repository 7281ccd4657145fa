"""The steps of a run, a module for each phase (docs/architecture.md §3): ``clarify``, ``plan``, ``gathering`` and
``research`` (the evidence gathered, then read), ``drift``, ``synthesis`` and ``quality``, ``report``. Each step is
``async def step(ctx) -> str`` and returns the key of the next; ``runner.STEPS`` maps the keys to them."""
