"""A cached property safe to reach from several threads at once.

functools.cached_property lost its lock in Python 3.12; the engine searches from worker threads,
and two threads opening the same Chroma store at the same moment break it ("Could not connect to
tenant default_tenant")."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class locked_cached_property(Generic[T]):  # noqa: N801 - named like the decorator it replaces
    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.lock = threading.RLock()
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> T:
        if obj is None:
            return self  # type: ignore[return-value]
        cache = obj.__dict__
        if self.name in cache:
            return cache[self.name]
        with self.lock:
            if self.name not in cache:
                cache[self.name] = self.fn(obj)
            return cache[self.name]
