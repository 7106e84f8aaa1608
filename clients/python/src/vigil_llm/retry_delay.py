"""How long to wait before the next attempt of a batch: the server's Retry-After when it gave one, else backoff."""

from __future__ import annotations

import random
import re
import time
from email.utils import parsedate_to_datetime
from typing import Callable, Optional

_SECONDS = re.compile(r"^\d+(\.\d+)?$")


def backoff(attempt: int, base: float, maximum: float, rand: Callable[[], float] = random.random) -> float:
    """Exponential backoff with equal jitter, in seconds: attempt n waits between cap/2 and cap, where
    cap = min(maximum, base * 2**n). Half fixed, half random: clients that failed together spread out, none at once."""
    cap = min(maximum, base * 2 ** min(attempt, 30))
    return cap / 2 + rand() * (cap / 2)


def parse_retry_after(header: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """A Retry-After header in seconds: delta-seconds (fractions accepted) or an HTTP-date counted from ``now``
    (epoch seconds). None when absent or unreadable; never negative."""
    if header is None:
        return None
    text = header.strip()
    if _SECONDS.match(text):
        return float(text)
    if not text[:3].isalpha():
        return None
    try:
        at = parsedate_to_datetime(text).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0.0, at - (time.time() if now is None else now))
