"""Sends governed records to the agent (middleware/core/record-shipper.ts): `POST <agent>/api/gateway/records` with
`{"records": [...]}` and the ingest token, from a thread of its own. A POST when `batch_size` records wait or
`flush_interval` after the first; connection errors, timeouts, 429 and 5xx keep the batch at the head of the queue and
retry it with exponential backoff (jittered); another 4xx drops it. The queue is bounded: when full, the newest records
are dropped (and counted). Nothing here raises to the caller, and the thread never keeps the process alive.
"""
from __future__ import annotations

import random
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from typing import Callable, Deque, Dict, List, Optional

MAX_BATCH_CHARS = 4 * 1024 * 1024

# The agent is reached directly, whatever *_proxy variables the app's environment holds.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class _Rejected(Exception):
    pass


class RecordShipper:
    def __init__(self, *, url: str, token: str, max_queue: int, batch_size: int, flush_interval: float, timeout: float,
                 min_backoff: float, max_backoff: float, report: Callable[[Exception], None]) -> None:
        self.url = url
        self._auth = 'Bearer ' + token
        self.max_queue = max_queue
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self.timeout = timeout
        self.min_backoff = min_backoff
        self.max_backoff = max_backoff
        self._report = report
        self._queue: Deque[str] = deque()
        self._cond = threading.Condition()
        self._first_at: Optional[float] = None
        self._attempt = 0
        self._retry_at = 0.0
        self._urgent = 0
        self._sending = False
        self._closed = False
        self.sent = 0
        self.dropped = 0
        self.rejected = 0
        self.retries = 0
        self._thread = threading.Thread(target=self._run, name='vigil-record-shipper', daemon=True)
        self._thread.start()

    def stats(self) -> Dict[str, int]:
        with self._cond:
            return {'queued': len(self._queue), 'sent': self.sent, 'dropped': self.dropped, 'rejected': self.rejected,
                    'retries': self.retries}

    def push(self, records: List[str]) -> None:
        with self._cond:
            if self._closed:
                self.dropped += len(records)
                return
            for r in records:
                if len(self._queue) >= self.max_queue:
                    self.dropped += 1
                else:
                    self._queue.append(r)
            if self._queue and self._first_at is None:
                self._first_at = time.monotonic()
            self._cond.notify_all()

    def flush(self, deadline: float = 10.0) -> None:
        """Sends what is queued now, retrying until delivered or `deadline` seconds passed; never raises."""
        end = time.monotonic() + deadline
        with self._cond:
            self._urgent += 1
            self._cond.notify_all()
            try:
                while (self._queue or self._sending) and time.monotonic() < end:
                    self._cond.wait(min(0.05, max(0.0, end - time.monotonic())))
            finally:
                self._urgent -= 1

    def close(self, deadline: float = 5.0) -> None:
        """Flushes (bounded by `deadline`), then stops: later records are dropped. Safe to call twice."""
        if self._closed:
            return
        self.flush(deadline)
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _due(self, now: float) -> Optional[float]:
        """Seconds until the head batch should go (0: now), or None when nothing waits."""
        if not self._queue:
            return None
        if self._attempt > 0:
            return max(0.0, self._retry_at - now) if not self._urgent else max(0.0, min(self._retry_at - now, 0.05))
        if self._urgent or len(self._queue) >= self.batch_size or self._closed:
            return 0.0
        return max(0.0, (self._first_at or now) + self.flush_interval - now)

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    if self._closed and (not self._queue or not self._urgent):
                        return
                    wait = self._due(time.monotonic())
                    if wait == 0.0:
                        break
                    self._cond.wait(wait)
                count = self._batch_count()
                body = '{"records":[' + ','.join(self._queue[i] for i in range(count)) + ']}'
                self._sending = True
            try:
                outcome = self._post(body.encode('utf-8'), count)
            finally:
                with self._cond:
                    self._sending = False
                    if outcome == 'sent' or outcome == 'rejected':
                        for _ in range(count):
                            self._queue.popleft()
                        if outcome == 'sent':
                            self.sent += count
                        else:
                            self.rejected += count
                        self._attempt = 0
                        self._first_at = time.monotonic() if self._queue else None
                    else:
                        self._attempt += 1
                        self.retries += 1
                        self._retry_at = time.monotonic() + self._backoff()
                    self._cond.notify_all()

    def _batch_count(self) -> int:
        chars = 0
        n = 0
        limit = min(len(self._queue), self.batch_size)
        while n < limit:
            chars += len(self._queue[n]) + 1
            if n > 0 and chars > MAX_BATCH_CHARS:
                break
            n += 1
        return n

    def _post(self, body: bytes, count: int) -> str:
        req = urllib.request.Request(self.url, data=body, method='POST', headers={
            'Content-Type': 'application/json', 'Authorization': self._auth})
        try:
            with _OPENER.open(req, timeout=self.timeout) as res:
                res.read()
                return 'sent'
        except urllib.error.HTTPError as err:
            try:
                text = err.read(300).decode('utf-8', 'replace')
            except Exception:  # noqa: BLE001
                text = ''
            finally:
                err.close()
            message = 'the agent answered %d to %d record(s): %s' % (err.code, count, text)
            if err.code == 429 or err.code >= 500:
                self._report(ConnectionError('%s (attempt %d, retrying)' % (message, self._attempt + 1)))
                return 'retry'
            self._report(_Rejected(message))
            return 'rejected'
        except Exception as err:  # noqa: BLE001 - connection refused, reset, timeout: all retried
            self._report(ConnectionError('sending %d record(s) to %s failed (attempt %d, retrying): %s'
                                         % (count, self.url, self._attempt + 1, err)))
            return 'retry'

    def _backoff(self) -> float:
        base = min(self.max_backoff, self.min_backoff * 2 ** min(self._attempt - 1, 20))
        # Full jitter in the upper half: many app instances coming back at once do not retry in step.
        return base / 2 + random.random() * base / 2
