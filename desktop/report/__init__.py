"""The final report and its exports (Markdown, HTML, PDF, DOCX, JSON); used by engine, UI and CLI."""
