"""The team's knowledge base on PostgreSQL (catalog, lexical index, vectors, PDFs): see docs/server.md."""
