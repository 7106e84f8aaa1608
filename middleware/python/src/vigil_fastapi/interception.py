"""The interception of one captured exchange, as ASGI sees it (the Express middleware's middleware/core/interception.ts).

It watches without taking part: the request's body messages as the app receives them, the response's as the app sends
them. Every chunk is copied into a bounded buffer; none is held, changed or delayed. When the app is done, the exchange
is handed to governance, which builds the same exchange the gateway's proxy builds, in its own thread.
"""
from __future__ import annotations

import time
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple

from .engine.bounded_copy import BoundedCopy, ByteBudget
from .engine.extract_labels import extract_labels
from .engine.header_record import without_hop_by_hop
from .engine.merge import RouteDecision
from .engine.raw_exchange import RawExchange, raw_exchange

Message = Dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

CLIENT_ABORTED = 'client_aborted'


def _declared_length(headers: Optional[List[Tuple[bytes, bytes]]]) -> int:
    for name, value in headers or ():
        if name.lower() == b'content-length':
            try:
                n = int(value)
            except ValueError:
                return -1
            return n if n >= 0 else -1
    return -1


def _has_request_body(headers: List[Tuple[bytes, bytes]]) -> bool:
    for name, value in headers:
        lower = name.lower()
        if lower == b'transfer-encoding':
            return True
        if lower == b'content-length':
            return value.strip() not in (b'0', b'')
    return False


def _flat(headers: List[Tuple[bytes, bytes]]) -> List[str]:
    out: List[str] = []
    for name, value in headers:
        out.append(name.decode('latin-1'))
        out.append(value.decode('latin-1'))
    return out


class Interception:
    __slots__ = ('decision', 'max_body_bytes', 'budget', 'scope', 'target', 'time_ms', 'started', 'request_copy',
                 'response_copy', 'request_ended', 'response_ended', 'status', 'response_headers', 'error', 'duration',
                 'may_have_body', 'report', 'broken')

    def __init__(self, decision: RouteDecision, max_body_bytes: int, budget: ByteBudget, scope: Dict[str, Any], target: str,
                 report: Callable[[BaseException], None]) -> None:
        self.decision = decision
        self.max_body_bytes = max_body_bytes
        self.budget = budget
        self.scope = scope
        self.target = target
        self.time_ms = int(time.time() * 1000)
        self.started = time.perf_counter()
        self.request_copy: Optional[BoundedCopy] = None
        self.response_copy: Optional[BoundedCopy] = None
        # A request without a body has nothing left to read: it ended as it arrived.
        self.request_ended = not _has_request_body(scope.get('headers') or [])
        self.response_ended = False
        self.status = 0
        self.response_headers: Optional[List[Tuple[bytes, bytes]]] = None
        self.error: Optional[str] = None
        self.duration = 0.0
        self.may_have_body = True
        self.report = report
        # Set when watching failed: the exchange is let go unrecorded, and the app never notices.
        self.broken = False

    def receive(self, receive: Receive) -> Receive:
        async def watched() -> Message:
            message = await receive()
            if message['type'] == 'http.request' and not self.broken:
                try:
                    body = message.get('body') or b''
                    if body and self.decision.capture_request_body:
                        copy = self.request_copy
                        if copy is None:
                            copy = self.request_copy = BoundedCopy(self.max_body_bytes, _declared_length(self.scope.get('headers') or []), self.budget)
                        copy.push(body)
                    if not message.get('more_body', False):
                        self.request_ended = True
                except Exception as err:  # noqa: BLE001 - never into the app
                    self.fail(err)
            return message
        return watched

    def send(self, send: Send) -> Send:
        async def watched(message: Message) -> None:
            if not self.broken:
                try:
                    self.sent(message)
                except Exception as err:  # noqa: BLE001 - never into the app
                    self.fail(err)
            await send(message)
        return watched

    def sent(self, message: Message) -> None:
        kind = message['type']
        if kind == 'http.response.start':
            self.status = message['status']
            self.response_headers = list(message.get('headers') or [])
            self.may_have_body = self.scope.get('method') != 'HEAD' and self.status not in (204, 304)
        elif kind == 'http.response.body' and not self.response_ended:
            body = message.get('body') or b''
            if body and self.decision.capture_response_body and self.may_have_body:
                copy = self.response_copy
                if copy is None:
                    copy = self.response_copy = BoundedCopy(self.max_body_bytes, _declared_length(self.response_headers), self.budget)
                copy.push(body)
            if not message.get('more_body', False):
                self.response_ended = True
                self.duration = (time.perf_counter() - self.started) * 1000

    def fail(self, err: BaseException) -> None:
        self.broken = True
        self.release()
        self.report(err)

    def release(self) -> None:
        for copy in (self.request_copy, self.response_copy):
            if copy is not None:
                copy.release()
        self.request_copy = None
        self.response_copy = None

    def finished(self, raised: bool) -> None:
        """The app returned (or raised): what was not sent whole was cut short."""
        if not self.response_ended:
            self.duration = (time.perf_counter() - self.started) * 1000
            if self.error is None and not raised:
                self.error = CLIENT_ABORTED
            if raised and self.response_headers is None:
                # The server's error handler answers 500 outside this middleware.
                self.status = 500

    def held(self) -> int:
        return (self.request_copy.held if self.request_copy else 0) + (self.response_copy.held if self.response_copy else 0)

    def build(self) -> RawExchange:
        """The exchange the gateway's proxy would publish; runs in the governance thread."""
        request_headers = _flat(self.scope.get('headers') or [])
        response_headers = None
        if self.decision.capture_headers and self.response_headers is not None:
            response_headers = without_hop_by_hop(_flat(self.response_headers))
        exchange = raw_exchange(
            decision=self.decision, time_ms=self.time_ms, method=self.scope.get('method', 'GET'), target=self.target,
            labels=extract_labels(self.decision, request_headers), request_headers=request_headers,
            response_headers=response_headers, status=self.status,
            duration_ms=self.duration, request_copy=self.request_copy, response_copy=self.response_copy,
            request_ended=self.request_ended, response_ended=self.response_ended, error=self.error)
        self.request_copy = None
        self.response_copy = None
        return exchange
