"""LLM backends behind one protocol (DESIGN §4): Ollama (default) and OpenAI-compatible servers."""
