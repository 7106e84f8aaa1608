"""VigilMiddleware: the gateway's governance inside a FastAPI (or any ASGI) app, as a pure ASGI middleware."""
from __future__ import annotations

import atexit
import logging
import os
import re
import threading
import time
import urllib.parse
import weakref
from typing import Any, Callable, Dict, Mapping, Optional

from .engine.bounded_copy import ByteBudget
from .errors import VigilOptionsError
from .governance import Governance
from .interception import Interception, Message, Receive, Send
from .load_config import load_config
from .record_shipper import RecordShipper

INGEST_PATH = '/api/gateway/records'
LOG_INTERVAL = 10.0
_DIGITS = re.compile(r'\d+')
_log = logging.getLogger('vigil_fastapi')

ASGIApp = Callable[[Dict[str, Any], Receive, Send], Any]


def _positive(name: str, value: Optional[float], fallback: float) -> float:
    if value is None:
        return fallback
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or value != value or value == float('inf'):
        raise VigilOptionsError('%s must be a positive number, not %r' % (name, value))
    return value


def ingest_url(agent_url: str) -> str:
    try:
        parts = urllib.parse.urlsplit(agent_url)
    except ValueError:
        raise VigilOptionsError('agent_url %r is not a URL; write it as http://host:port' % agent_url) from None
    if parts.scheme not in ('http', 'https'):
        raise VigilOptionsError('agent_url %r must be http or https' % agent_url)
    if not parts.netloc:
        raise VigilOptionsError('agent_url %r is not a URL; write it as http://host:port' % agent_url)
    return '%s://%s%s%s' % (parts.scheme, parts.netloc, parts.path.rstrip('/'), INGEST_PATH)


class VigilMiddleware:
    """``app.add_middleware(VigilMiddleware, config_path="vigil.yaml", agent_url=..., token=...)``.

    Decides each request with the config file's rules, copies the bodies as the gateway would (bounded), governs them
    in this process after the response is sent, and ships only governed records to the agent. Raises
    VigilConfigError or VigilOptionsError when created, never later; nothing is ever raised into a request.
    """

    def __init__(self, app: ASGIApp, config_path: Optional[str] = None, agent_url: Optional[str] = None,
                 token: Optional[str] = None, *, queue_bytes: int = 64 * 1024 * 1024, max_pending: int = 10_000,
                 max_queue: int = 10_000, batch_size: int = 512, flush_interval_ms: float = 1_000,
                 timeout_ms: float = 10_000, min_backoff_ms: float = 500, max_backoff_ms: float = 30_000,
                 on_error: Optional[Callable[[BaseException], None]] = None,
                 env: Optional[Mapping[str, str]] = None) -> None:
        self.app = app
        env = os.environ if env is None else env
        if not isinstance(config_path, str) or config_path == '':
            raise VigilOptionsError('config_path is required: the vigil config file whose rules govern')
        agent_url = agent_url if agent_url is not None else env.get('VIGIL_AGENT_URL')
        if not isinstance(agent_url, str) or agent_url == '':
            raise VigilOptionsError("agent_url is required (or VIGIL_AGENT_URL): the Vigil agent's control plane, e.g. "
                                    'http://127.0.0.1:9095')
        url = ingest_url(agent_url)
        token = token if token is not None else env.get('VIGIL_INGEST_TOKEN')
        if not isinstance(token, str) or token == '':
            raise VigilOptionsError("token is required (or VIGIL_INGEST_TOKEN): the agent's capture.ingest_token")
        queue_bytes = int(_positive('queue_bytes', queue_bytes, 64 * 1024 * 1024))
        max_pending = int(_positive('max_pending', max_pending, 10_000))
        max_queue = int(_positive('max_queue', max_queue, 10_000))
        batch_size = int(_positive('batch_size', batch_size, 512))
        flush_interval = _positive('flush_interval_ms', flush_interval_ms, 1_000) / 1000
        timeout = _positive('timeout_ms', timeout_ms, 10_000) / 1000
        min_backoff = _positive('min_backoff_ms', min_backoff_ms, 500) / 1000
        max_backoff = _positive('max_backoff_ms', max_backoff_ms, 30_000) / 1000

        loaded = load_config(config_path, env)
        self.config_file = loaded.file
        self.policy = loaded.policy
        self.max_body_bytes = loaded.max_body_bytes
        self.budget = ByteBudget(queue_bytes)
        self._on_error = on_error if on_error is not None else self._log_once
        self._last_logged: Dict[str, float] = {}
        self._captured = 0
        self._closed = False
        self._close_lock = threading.Lock()
        self.shipper = RecordShipper(url=url, token=token, max_queue=max_queue, batch_size=batch_size,
                                     flush_interval=flush_interval, timeout=timeout, min_backoff=min_backoff,
                                     max_backoff=max_backoff, report=self._report)
        self.governance = Governance(budget=self.budget, max_pending=max_pending, deliver=self.shipper.push, report=self._report)
        # Records still queued at exit are sent (bounded): the threads are daemons and would be cut off.
        ref = weakref.ref(self)
        atexit.register(lambda: (lambda m: m.close(2.0) if m is not None else None)(ref()))

    async def __call__(self, scope: Dict[str, Any], receive: Receive, send: Send) -> None:
        kind = scope.get('type')
        if kind == 'lifespan':
            await self.app(scope, receive, self._lifespan_send(send))
            return
        if kind != 'http' or self._closed:
            await self.app(scope, receive, send)
            return
        try:
            raw_path = scope.get('raw_path')
            if raw_path and b'?' in raw_path:
                raw_path = raw_path.split(b'?', 1)[0]  # some servers and test clients leave the query in it
            path = raw_path.decode('latin-1') if raw_path else urllib.parse.quote(scope.get('path') or '/', safe="/:@!$&'()*+,;=-._~%")
            query = scope.get('query_string') or b''
            target = path + '?' + query.decode('latin-1') if query else path
            decision = self.policy.decide(scope.get('method') or 'GET', target)
        except Exception as err:  # noqa: BLE001 - never into the app
            self._report(err)
            await self.app(scope, receive, send)
            return
        # A route that captures nothing costs its decision and nothing more.
        if not (decision.capture_request_body or decision.capture_response_body or decision.capture_headers):
            await self.app(scope, receive, send)
            return
        watch = Interception(decision, self.max_body_bytes, self.budget, scope, target, self._report)
        raised = False
        try:
            await self.app(scope, watch.receive(receive), watch.send(send))
        except BaseException:
            raised = True
            raise
        finally:
            try:
                if not watch.broken:
                    watch.finished(raised)
                    self._captured += 1
                    self.governance.push(watch.build, watch.held)
            except Exception as err:  # noqa: BLE001
                watch.release()
                self._report(err)

    def _lifespan_send(self, send: Send) -> Send:
        async def watched(message: Message) -> None:
            if message.get('type') in ('lifespan.shutdown.complete', 'lifespan.shutdown.failed'):
                import asyncio
                await asyncio.get_running_loop().run_in_executor(None, self.close)
            await send(message)
        return watched

    def stats(self) -> Dict[str, Any]:
        out: Dict[str, Any] = dict(self.shipper.stats())
        out.update(captured=self._captured, governance_dropped=self.governance.dropped,
                   governance_failed=self.governance.failed, held_bytes=self.budget.held,
                   govern_ms=self.governance.govern_seconds * 1000)
        return out

    def flush(self, deadline: float = 10.0) -> None:
        """Governs what was captured and sends it, retrying until delivered or `deadline` seconds passed; never raises."""
        end = time.monotonic() + deadline
        self.governance.flush(deadline)
        self.shipper.flush(max(0.0, end - time.monotonic()))

    def close(self, deadline: float = 5.0) -> None:
        """Stops capturing, then flushes within `deadline` seconds. Safe to call twice (and from atexit)."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        end = time.monotonic() + deadline
        self.governance.flush(deadline)
        self.shipper.close(max(0.0, end - time.monotonic()))

    def _report(self, err: BaseException) -> None:
        try:
            self._on_error(err)
        except Exception:  # noqa: BLE001 - a failing handler must not fail the app either
            pass

    def _log_once(self, err: BaseException) -> None:
        kind = _DIGITS.sub('#', str(err))[:80]
        now = time.monotonic()
        if self._last_logged.get(kind, -LOG_INTERVAL * 2) + LOG_INTERVAL > now:
            return
        self._last_logged[kind] = now
        _log.warning('[vigil] %s', err)
