"""Ships the buffer to Vigil from one background thread: a batch as soon as ``batch_size`` items wait, everything
once the oldest waiting item is ``flush_interval`` old, and everything on ``flush()``. One batch is in flight at a
time, in order; a batch is retried (same bytes, same item ids, so the server stores it once) on network errors,
timeouts, 5xx and 429, after the server's Retry-After or an exponential backoff with jitter, at most ``max_retries``
times. A 413 splits the batch in halves; any other 4xx drops it. Nothing here raises into the application: every
loss is counted and reported once through ``report``.

Threads: the sender is a daemon thread, started with the first item, so it never keeps a process alive on its own;
the flush at exit (exit_flush.py) is what delivers an application's last traces. One condition guards the buffer and
the counts; the application's thread only encodes its item and appends it."""

from __future__ import annotations

import os
import threading
import time
import weakref
from typing import Callable, Dict, List, Optional, Sequence

from . import errors
from .encode_item import EncodedItem
from .errors import VigilClientError
from .options import ResolvedOptions
from .retry_delay import backoff
from .trace_buffer import TraceBuffer
from .transport import Accepted, Refused, Retry, TooLarge, Transport

Report = Callable[[VigilClientError], None]


def _after_fork(ref: "weakref.ref[Delivery]") -> None:
    delivery = ref()
    if delivery is not None:
        delivery._after_fork()


class Delivery:
    def __init__(self, buffer: TraceBuffer, transport: Transport, options: ResolvedOptions, report: Report) -> None:
        self._buffer = buffer
        self._transport = transport
        self._o = options
        self._report = report
        self._cond = threading.Condition()
        #: sent: accepted by the server; dropped: given up on; rejected: refused one by one in a 202; retries: attempts
        #: after a batch's first.
        self.counts: Dict[str, int] = {"sent": 0, "dropped": 0, "rejected": 0, "retries": 0}
        self._thread: Optional[threading.Thread] = None
        self._stopped = False
        #: monotonic time the oldest waiting item arrived; None while nothing waits.
        self._oldest: Optional[float] = None
        #: Set once the oldest item is flush_interval old: send everything waiting, then clear.
        self._draining = False
        self._flush_waiters = 0
        #: Codes reported in the current run of drops: a full buffer reports once per episode, not once per trace.
        self._quiet: set = set()
        if hasattr(os, "register_at_fork"):
            # A forked child (a pre-forking server's worker) has this object but not its thread: start afresh there.
            # Held weakly: the hook cannot be unregistered, and must not keep a dropped client alive. Items the parent
            # held are sent by both; their ids make the server store them once.
            ref = weakref.ref(self)
            os.register_at_fork(after_in_child=lambda: _after_fork(ref))

    # --- the application's side -----------------------------------------------------------------------------------

    def enqueue(self, item: EncodedItem) -> None:
        """Queues one encoded item, or drops and counts it when the buffer is at its bound or the client closed."""
        problem: Optional[VigilClientError] = None
        with self._cond:
            if self._stopped:
                problem = self._drop_quietly(errors.CLOSED, "a trace was recorded after the client closed; it and any later ones are dropped")
            elif not self._buffer.add(item):
                problem = self._drop_quietly(
                    errors.BUFFER_FULL,
                    f"the buffer is full ({self._buffer.items} items, {self._buffer.bytes} bytes held; bounds "
                    f"{self._buffer.max_items} items, {self._buffer.max_bytes} bytes): Vigil is slow or unreachable; "
                    "traces are dropped until it drains",
                )
            else:
                self._quiet.discard(errors.BUFFER_FULL)
                if self._oldest is None:
                    self._oldest = time.monotonic()
                    self._start_thread()
                    self._cond.notify_all()
                elif self._buffer.pending == self._o.batch_size:
                    self._cond.notify_all()
        if problem:
            self._report(problem)

    def flush(self, timeout: float) -> bool:
        """True once every item recorded before the call has settled (sent, rejected or dropped); False at the
        deadline. Blocks the calling thread meanwhile, never the sender."""
        deadline = time.monotonic() + timeout
        with self._cond:
            target = self._buffer.added
            if self._buffer.settled >= target:
                return True
            self._flush_waiters += 1
            self._start_thread()
            self._cond.notify_all()
            try:
                while self._buffer.settled < target and not self._stopped:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return False
                    self._cond.wait(remaining)
                return self._buffer.settled >= target
            finally:
                self._flush_waiters -= 1

    def stop(self, join_timeout: float = 1.0) -> None:
        """Stops retrying, drops what waits and what is in flight (counted), and lets the thread end. Idempotent."""
        with self._cond:
            if self._stopped:
                return
            self._stopped = True
            dropped = self._buffer.drop_pending()
            if dropped:
                self.counts["dropped"] += dropped
            self._cond.notify_all()
        if dropped:
            self._report(VigilClientError(errors.NOT_DELIVERED, f"{dropped} trace item(s) were not sent before the client closed", dropped))
        self._transport.close()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(join_timeout)

    # --- the sender thread -----------------------------------------------------------------------------------------

    def _start_thread(self) -> None:
        if self._thread is None and not self._stopped:
            self._thread = threading.Thread(target=self._run, name="vigil-llm-delivery", daemon=True)
            self._thread.start()

    def _after_fork(self) -> None:
        self._cond = threading.Condition()
        self._thread = None
        self._transport.close()
        if self._buffer.pending:
            self._start_thread()

    def _next_batch(self) -> Optional[List[EncodedItem]]:
        """Waits until a batch is due; None once stopped."""
        o = self._o
        with self._cond:
            while True:
                if self._stopped:
                    return None
                pending = self._buffer.pending
                if pending == 0:
                    self._oldest = None
                    self._draining = False
                    self._cond.wait()
                    continue
                if self._oldest is not None and time.monotonic() >= self._oldest + o.flush_interval:
                    self._draining = True
                if pending >= o.batch_size or self._draining or self._flush_waiters:
                    batch = self._buffer.take(o.batch_size, o.max_batch_bytes)
                    # The rest has waited as long as the batch did: the interval is the oldest item's.
                    if self._buffer.pending == 0:
                        self._oldest = None
                        self._draining = False
                    return batch
                assert self._oldest is not None
                self._cond.wait(max(0.0, self._oldest + o.flush_interval - time.monotonic()))

    def _run(self) -> None:
        while True:
            batch = self._next_batch()
            if batch is None:
                return
            try:
                self._deliver(batch)
            except Exception as err:  # noqa: BLE001 — a bug here must not end the sender
                self._report(VigilClientError(errors.INTERNAL, f"sending loop: {type(err).__name__}: {err}"))
                self._count("dropped", len(batch))
            finally:
                with self._cond:
                    self._buffer.release(batch)
                    self._cond.notify_all()

    def _count(self, key: str, n: int) -> None:
        with self._cond:
            self.counts[key] += n

    def _sleep(self, seconds: float) -> None:
        """Waits, or less when the client stops meanwhile."""
        deadline = time.monotonic() + seconds
        with self._cond:
            while not self._stopped:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                self._cond.wait(remaining)

    def _deliver(self, batch: Sequence[EncodedItem]) -> None:
        """Sends one batch until it settles; every outcome is counted here."""
        attempt = 0
        while True:
            if self._stopped:
                self._drop(len(batch), errors.NOT_DELIVERED, f"{len(batch)} trace item(s) waiting for a retry were not delivered before the client closed")
                return
            outcome = self._transport.post(batch)
            if isinstance(outcome, Accepted):
                self._count("sent", outcome.accepted)
                if outcome.rejected > 0:
                    self._count("rejected", outcome.rejected)
                    detail = "; ".join(
                        f"#{e.get('index')} {e.get('path') or ''}: {e.get('code') or ''} {e.get('message') or ''}".strip() for e in outcome.errors[:5]
                    )
                    self._report(VigilClientError(errors.ITEMS_REJECTED, f"Vigil rejected {outcome.rejected} of {len(batch)} item(s): {detail}", outcome.rejected))
                return
            if isinstance(outcome, TooLarge):
                if len(batch) > 1:
                    # Halves are new requests, each with its own retries: the server's limit is below ours.
                    half = (len(batch) + 1) // 2
                    self._deliver(batch[:half])
                    self._deliver(batch[half:])
                else:
                    self._drop(1, errors.TOO_LARGE, f"Vigil refused one trace item as too large ({len(batch[0].json)} bytes): {outcome.reason}", 413)
                return
            if isinstance(outcome, Refused):
                code = errors.AUTH if outcome.status in (401, 403) else errors.BATCH_REFUSED
                self._drop(len(batch), code, f"Vigil refused a batch of {len(batch)} item(s): {outcome.reason}", outcome.status)
                return
            assert isinstance(outcome, Retry)
            if self._stopped:
                self._drop(len(batch), errors.NOT_DELIVERED, f"{len(batch)} trace item(s) in flight were not delivered before the client closed ({outcome.reason})")
                return
            if attempt >= self._o.max_retries:
                self._drop(len(batch), errors.RETRIES_EXHAUSTED, f"a batch of {len(batch)} item(s) failed {attempt + 1} time(s), last: {outcome.reason}", outcome.status)
                return
            self._count("retries", 1)
            wait = outcome.retry_after if outcome.retry_after is not None else backoff(attempt, self._o.retry_base, self._o.retry_max)
            self._sleep(wait)
            attempt += 1

    def _drop(self, items: int, code: str, message: str, status: Optional[int] = None) -> None:
        self._count("dropped", items)
        self._report(VigilClientError(code, message, items, status))

    def _drop_quietly(self, code: str, message: str) -> Optional[VigilClientError]:
        """Counts one dropped item (the caller holds the lock); the error to report for the first of a run, else None."""
        self.counts["dropped"] += 1
        if code in self._quiet:
            return None
        self._quiet.add(code)
        return VigilClientError(code, message, 1)
