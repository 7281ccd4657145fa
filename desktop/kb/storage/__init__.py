"""Storage: the SQLite catalog of a workstation's knowledge base, and the registry of the databases under the
data folder. (docs/architecture.md §2)"""
