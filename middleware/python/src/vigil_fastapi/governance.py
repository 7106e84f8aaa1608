"""Governs finished exchanges in this process, in a thread of its own, after the responses are sent
(middleware/core/in-process-governance.ts): the request path only decides and copies. Raw exchanges never leave the
process; only records do. The queue is bounded: beyond `max_pending` waiting exchanges, new ones are dropped (and
their bytes given back).
"""
from __future__ import annotations

import queue
import threading
import time
from typing import Callable, List, Optional

from .engine.bounded_copy import ByteBudget
from .engine.govern import govern_for_storage, record_json
from .engine.raw_exchange import RawExchange

MAX_BATCH = 512
# After a batch, the thread lets exchanges gather this long before it takes the next: one wake-up (and one pass of
# the interpreter lock between the app's thread and this one) per batch, not per request.
GATHER_SECONDS = 0.05


class Governance:
    def __init__(self, *, budget: ByteBudget, max_pending: int, deliver: Callable[[List[str]], None],
                 report: Callable[[BaseException], None]) -> None:
        self._budget = budget
        self._deliver = deliver
        self._report = report
        self._queue: 'queue.Queue[Optional[Callable[[], RawExchange]]]' = queue.Queue(maxsize=max_pending)
        self._idle = threading.Condition()
        self._busy = 0
        self.dropped = 0
        self.failed = 0
        self.govern_seconds = 0.0
        self._thread = threading.Thread(target=self._run, name='vigil-governance', daemon=True)
        self._thread.start()

    @property
    def queued(self) -> int:
        return self._queue.qsize()

    def push(self, build: Callable[[], RawExchange], held: Callable[[], int]) -> bool:
        """Queues an exchange (built in the thread); False, and its bytes given back, when the queue is full."""
        with self._idle:
            self._busy += 1
        try:
            self._queue.put_nowait(build)
            return True
        except queue.Full:
            self.dropped += 1
            self._budget.give(held())
            self._done(1)
            return False

    def flush(self, deadline: float = 10.0) -> None:
        """Waits until every exchange queued so far is governed and delivered (or `deadline` seconds passed)."""
        end = time.monotonic() + deadline
        with self._idle:
            while self._busy > 0 and time.monotonic() < end:
                self._idle.wait(min(0.05, max(0.0, end - time.monotonic())))

    def _done(self, n: int) -> None:
        with self._idle:
            self._busy -= n
            if self._busy <= 0:
                self._idle.notify_all()

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < MAX_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            started = time.thread_time()
            records: List[str] = []
            for build in batch:
                if build is None:
                    continue
                exchange: Optional[RawExchange] = None
                try:
                    exchange = build()
                    records.append(record_json(govern_for_storage(exchange, exchange.decision)))
                except Exception as err:  # noqa: BLE001 - no record: nothing ungoverned is ever shipped
                    self.failed += 1
                    self._report(err)
                finally:
                    if exchange is not None and exchange.held_bytes:
                        self._budget.give(exchange.held_bytes)
                        exchange.held_bytes = 0
            self.govern_seconds += time.thread_time() - started
            try:
                if records:
                    self._deliver(records)
            except Exception as err:  # noqa: BLE001
                self._report(err)
            finally:
                self._done(len(batch))
            if self._queue.qsize() < MAX_BATCH:
                time.sleep(GATHER_SECONDS)
