"""An asyncio event loop in a worker thread, and operations on it whose results reach the GUI thread.

Modelled on Anki's background operations: an operation runs away from the GUI thread and then calls
its success or failure handler on the GUI thread; it can be cancelled; it reports progress.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

Handler = Callable[[Any], None]


class _Relay(QObject):
    """Lives in the GUI thread: a signal emitted from the worker thread runs the handler there."""

    deliver = Signal(object, object)

    def __init__(self) -> None:
        super().__init__()
        self.deliver.connect(self._run)

    @Slot(object, object)
    def _run(self, handler: Handler, value: object) -> None:
        handler(value)


class Op:
    """A running operation: cancel it, or ask whether it is done."""

    def __init__(self, future: concurrent.futures.Future[Any]) -> None:
        self.future = future

    def cancel(self) -> None:
        self.future.cancel()

    @property
    def done(self) -> bool:
        return self.future.done()


class LoopThread:
    """The engine's event loop, on its own thread for the lifetime of the window."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._main, name="rabbithole-engine", daemon=True)
        self._relay = _Relay()
        self._thread.start()

    def _main(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def gui(self, handler: Handler | None) -> Handler:
        """A handler that, called from any thread, runs on the GUI thread."""
        if handler is None:
            return lambda value: None
        return lambda value: self._relay.deliver.emit(handler, value)

    def run(self, work: Callable[[], Awaitable[Any]], on_done: Handler | None = None,
            on_error: Handler | None = None) -> Op:
        """Start a coroutine on the loop; its result or exception goes to a handler on the GUI thread."""
        done, failed = self.gui(on_done), self.gui(on_error)
        future = asyncio.run_coroutine_threadsafe(work(), self.loop)

        def finished(f: concurrent.futures.Future[Any]) -> None:
            if f.cancelled():
                return
            exc = f.exception()
            if exc is None:
                done(f.result())
            else:
                failed(exc)

        future.add_done_callback(finished)
        return Op(future)

    def call(self, work: Callable[[], Awaitable[Any]], timeout: float | None = None) -> Any:
        """Wait for a coroutine's result (tests and shutdown only: never from a GUI handler)."""
        return asyncio.run_coroutine_threadsafe(work(), self.loop).result(timeout)

    def stop(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self.loop.close()
