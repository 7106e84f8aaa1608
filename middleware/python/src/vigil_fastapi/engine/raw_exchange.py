"""The exchange governance receives (gateway/exchange/raw-exchange.ts), built from the decision and the two copies."""
from __future__ import annotations

import random
import time
from typing import Dict, List, Optional

from .bounded_copy import BoundedCopy
from .fold_path import received_path
from .merge import RouteDecision


class RawExchange:
    __slots__ = ('id', 'time', 'method', 'target', 'path', 'decision', 'labels', 'request_headers', 'response_headers',
                 'status', 'duration_ms', 'request_body', 'request_truncated', 'response_body', 'response_truncated',
                 'request_incomplete', 'response_incomplete', 'request_body_dropped', 'response_body_dropped',
                 'held_bytes', 'error')

    def __init__(self, **fields: object) -> None:
        self.request_incomplete = False
        self.response_incomplete = False
        self.request_body_dropped = False
        self.response_body_dropped = False
        self.held_bytes = 0
        self.error: Optional[str] = None
        for k, v in fields.items():
            setattr(self, k, v)


def uuidv7(ms: int) -> str:
    """A UUIDv7 for epoch milliseconds `ms` (random bits from os.urandom)."""
    # Ids need to be unique, not secret: the interpreter's generator, without a system call per record.
    rand = bytearray(random.getrandbits(80).to_bytes(10, 'big'))
    rand[0] = (rand[0] & 0x0f) | 0x70
    rand[2] = (rand[2] & 0x3f) | 0x80
    h = '%012x' % (ms & 0xffffffffffff) + rand.hex()
    return '%s-%s-%s-%s-%s' % (h[:8], h[8:12], h[12:16], h[16:20], h[20:32])


def raw_exchange(*, decision: RouteDecision, time_ms: int, method: str, target: str, labels: Dict[str, str],
                 request_headers: List[str], response_headers: Optional[List[str]], status: int, duration_ms: float,
                 request_copy: Optional[BoundedCopy], response_copy: Optional[BoundedCopy], request_ended: bool,
                 response_ended: bool, error: Optional[str]) -> RawExchange:
    request_incomplete = request_copy is not None and not request_ended
    response_incomplete = response_copy is not None and not response_ended
    if request_copy is not None:
        request_copy.bytes()
    if response_copy is not None:
        response_copy.bytes()
    held = (request_copy.held if request_copy else 0) + (response_copy.held if response_copy else 0)
    return RawExchange(
        id=uuidv7(time_ms), time=time_ms, method=method, target=target, path=received_path(target), decision=decision,
        labels=labels,
        request_headers=request_headers if decision.capture_headers else None,
        response_headers=response_headers if decision.capture_headers else None,
        status=status, duration_ms=duration_ms,
        request_body=request_copy.hand_over() if request_copy is not None else b'' if decision.capture_request_body else None,
        request_truncated=(request_copy.truncated if request_copy else False) or (request_incomplete and not request_copy.dropped),
        response_body=response_copy.hand_over() if response_copy is not None else b'' if decision.capture_response_body else None,
        response_truncated=(response_copy.truncated if response_copy else False) or (response_incomplete and not response_copy.dropped),
        request_incomplete=request_incomplete, response_incomplete=response_incomplete,
        request_body_dropped=request_copy.dropped if request_copy else False,
        response_body_dropped=response_copy.dropped if response_copy else False,
        held_bytes=held, error=error,
    )


def now_ms() -> int:
    return int(time.time() * 1000)
