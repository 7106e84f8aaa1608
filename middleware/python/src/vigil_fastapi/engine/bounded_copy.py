"""A bounded copy of a body as it streams past (gateway/exchange/bounded-copy.ts): the first `limit` bytes, and
whether more went by. Bytes are counted in a shared budget before they are held; when the budget has no room the copy
is dropped whole (the body is then missing, never silently shorter).
"""
from __future__ import annotations

import threading
from typing import Optional

INITIAL_CAPACITY = 16 * 1024


class ByteBudget:
    """Bytes of body copies held at once, across requests and threads."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self._lock = threading.Lock()

    def take(self, n: int) -> bool:
        with self._lock:
            if self.held + n > self.limit:
                return False
            self.held += n
            return True

    def give(self, n: int) -> None:
        if n:
            with self._lock:
                self.held -= n


class BoundedCopy:
    __slots__ = ('limit', 'expected_length', 'budget', 'buffer', 'capacity', 'truncated', 'dropped', 'held')

    def __init__(self, limit: int, expected_length: int, budget: Optional[ByteBudget] = None) -> None:
        self.limit = limit
        self.expected_length = expected_length
        self.budget = budget
        self.buffer = bytearray()
        # What the TypeScript copy would have allocated: the budget counts capacity, as it does there.
        self.capacity = 0
        self.truncated = False
        self.dropped = False
        self.held = 0

    def push(self, chunk: bytes) -> None:
        if self.dropped:
            return
        length = len(self.buffer)
        room = self.limit - length
        if len(chunk) > room:
            self.truncated = True
        n = len(chunk) if len(chunk) < room else room
        if n <= 0:
            return
        needed = length + n
        if self.capacity < needed and not self._grow(needed):
            self._drop()
            return
        self.buffer += chunk if n == len(chunk) else chunk[:n]

    def bytes(self) -> bytes:
        """The bytes kept; the budget then holds exactly those."""
        length = len(self.buffer)
        if self.held != length and self.budget is not None:
            self.budget.give(self.held - length)
        self.held = length
        self.capacity = length
        return bytes(self.buffer)

    def hand_over(self) -> bytes:
        data = self.bytes()
        self.buffer = bytearray()
        self.held = 0
        self.capacity = 0
        return data

    def release(self) -> None:
        if self.budget is not None:
            self.budget.give(self.held)
        self.held = 0
        self.buffer = bytearray()
        self.capacity = 0

    def _drop(self) -> None:
        self.release()
        self.dropped = True
        self.truncated = False

    def _grow(self, needed: int) -> bool:
        if self.capacity == 0 and self.expected_length >= needed:
            capacity = min(self.expected_length, self.limit)
        else:
            capacity = min(self.limit, max(needed, INITIAL_CAPACITY, self.capacity * 2))
        more = capacity - self.capacity
        if self.budget is not None and not self.budget.take(more):
            return False
        self.held += more
        self.capacity = capacity
        return True
