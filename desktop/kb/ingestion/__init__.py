"""Ingestion: a PDF folder into a knowledge base — which files changed, page texts and chunks read in worker
processes, document structure, tables, and what a user is told about a file. (docs/architecture.md §2)"""
