"""A bounded map from (method, path) to a decision; the oldest entry goes first (policies/decision-cache.ts)."""
from __future__ import annotations

from typing import Dict, Generic, List, Optional, Tuple, TypeVar

V = TypeVar('V')


class DecisionCache(Generic[V]):
    def __init__(self, capacity: int) -> None:
        if not isinstance(capacity, int) or capacity < 1:
            raise ValueError('cache capacity must be a positive integer, got %r' % (capacity,))
        self.capacity = capacity
        self._by_method: Dict[str, Dict[str, V]] = {}
        self._ring: List[Optional[Tuple[str, str]]] = [None] * capacity
        self._head = 0
        self._count = 0

    @property
    def size(self) -> int:
        return self._count

    def get(self, method: str, path: str) -> Optional[V]:
        by_path = self._by_method.get(method)
        return None if by_path is None else by_path.get(path)

    def set(self, method: str, path: str, value: V) -> None:
        """Call only after a miss: the cache never holds the same key twice."""
        if self._count == self.capacity:
            old = self._ring[self._head]
            assert old is not None
            inner = self._by_method.get(old[0])
            if inner is not None:
                inner.pop(old[1], None)
                if not inner:
                    del self._by_method[old[0]]
            self._count -= 1
            self._ring[self._head] = (method, path)
            self._head = (self._head + 1) % self.capacity
        else:
            self._ring[(self._head + self._count) % self.capacity] = (method, path)
        self._by_method.setdefault(method, {})[path] = value
        self._count += 1
