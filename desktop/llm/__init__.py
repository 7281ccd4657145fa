"""LLM backends behind one protocol (docs/architecture.md §2): Ollama (default) and OpenAI-compatible servers."""
