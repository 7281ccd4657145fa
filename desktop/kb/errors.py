"""Errors of the knowledge base. Every message is written for the user, not for a developer."""

from __future__ import annotations

from desktop.kb.ingestion.notices import Notice


class KbError(Exception):
    """A problem the user can act on; ``str(exc)`` is the message to show."""


class DatabaseNotFound(KbError):
    def __init__(self, name: str, known: list[str]) -> None:
        hint = f" Known databases: {', '.join(known)}." if known else " There are no databases yet."
        super().__init__(f"No database named '{name}'.{hint} Create it with: rabbithole kb ingest PATH --db {name}")


class EmbedderMismatch(KbError):
    def __init__(self, database: str, recorded: str, requested: str) -> None:
        super().__init__(
            f"Database '{database}' was indexed with the embedder '{recorded}', not '{requested}'. "
            f"Vectors of different models cannot be mixed. Keep '{recorded}' (omit --embedder), ingest into a "
            f"new database with --embedder {requested}, or re-index this one: rabbithole kb drop --db "
            f"'{database}' --yes, then ingest the files again with --embedder {requested}."
        )


class DocumentNotFound(KbError):
    def __init__(self, ref: str, database: str) -> None:
        super().__init__(
            f"No document '{ref}' in database '{database}' (give a file name, path or doc id; "
            f"see rabbithole kb list --db {database})."
        )


class PdfRejected(KbError):
    """A file that cannot be ingested; the reason (a notice the window translates) goes into the
    ingestion report."""

    def __init__(self, reason: Notice) -> None:
        super().__init__(reason.text)
        self.reason = reason


class EmbedderUnavailable(KbError):
    pass


class VectorStoreUnavailable(KbError):
    pass


class ServerUnavailable(KbError):
    """The team's knowledge-base server cannot be reached, refuses the login or fails."""


class ReadOnlyDatabase(KbError):
    def __init__(self, user: str, where: str) -> None:
        super().__init__(
            f"The account '{user}' may search the knowledge bases on {where} but not change them. "
            f"Ask IT for an account with write access to add, update or remove documents."
        )


class ConcurrentChange(KbError):
    """Another workstation wrote the same document at the same moment; this transaction was undone."""
