"""The encoded items waiting to be sent, plus those of the batch in flight, bounded in count and in bytes. Items leave
in the order they came, one batch at a time; a batch still counts against the bounds until it settles (sent,
rejected or dropped), so the bounds hold everything the client keeps.

Memory: at most ``max_items`` items and ``max_bytes`` bytes of their JSON, plus the bookkeeping. Not thread-safe on
its own: the delivery's condition guards every call."""

from __future__ import annotations

from collections import deque
from typing import Deque, List, Sequence

from .encode_item import EncodedItem


class TraceBuffer:
    def __init__(self, max_items: int, max_bytes: int) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self._queue: Deque[EncodedItem] = deque()
        self.items = 0
        self.bytes = 0
        #: Items ever added and ever settled: a flush waits for ``settled`` to reach ``added``.
        self.added = 0
        self.settled = 0

    @property
    def pending(self) -> int:
        """Items not yet taken into a batch."""
        return len(self._queue)

    def add(self, item: EncodedItem) -> bool:
        """Adds the item, or returns False when it would pass either bound (the caller drops and counts it)."""
        size = len(item.json)
        if self.items + 1 > self.max_items or self.bytes + size > self.max_bytes:
            return False
        self._queue.append(item)
        self.items += 1
        self.bytes += size
        self.added += 1
        return True

    def take(self, max_items: int, max_bytes: int) -> List[EncodedItem]:
        """The next batch: up to ``max_items`` items and ``max_bytes`` bytes, but always one item when any waits."""
        batch: List[EncodedItem] = []
        size = 0
        while self._queue and len(batch) < max_items:
            item = self._queue[0]
            if batch and size + len(item.json) > max_bytes:
                break
            batch.append(self._queue.popleft())
            size += len(item.json)
        return batch

    def release(self, batch: Sequence[EncodedItem]) -> None:
        """The batch has settled: its items stop counting against the bounds."""
        self.items -= len(batch)
        self.bytes -= sum(len(i.json) for i in batch)
        self.settled += len(batch)

    def drop_pending(self) -> int:
        """Drops every item not yet taken; returns how many there were."""
        dropped = list(self._queue)
        self._queue.clear()
        self.release(dropped)
        return len(dropped)
