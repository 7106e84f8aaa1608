"""Turns whatever the application hands over (messages, pydantic models from openai, dataclasses, metadata) into
plain JSON data that ``json.dumps`` cannot fail on: cycles, bytes, NaN, objects that raise when read and very deep
values become markers instead of exceptions, because the client never raises into the application's code path."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import math
import uuid
from typing import Any, Dict, NamedTuple, Set


class Limits(NamedTuple):
    #: Longer strings keep their first ``max_string`` characters and end with a ``…[truncated N chars]`` marker.
    max_string: int = 1 << 20
    #: Deeper values become a marker: the server refuses very deep JSON.
    max_depth: int = 32
    #: Values copied in all, so a structure sharing subtrees cannot make the copy exponential.
    max_nodes: int = 100_000


DEFAULT_LIMITS = Limits()


class _Walk:
    __slots__ = ("limits", "path", "nodes")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.path: Set[int] = set()
        self.nodes = 0


def to_safe_json(value: Any, limits: Limits = DEFAULT_LIMITS) -> Any:
    """A copy of ``value`` made only of JSON types (None, bool, finite int/float, str, list, dict with str keys)."""
    return _clone(value, _Walk(limits), 0)


def truncate_string(text: str, maximum: int) -> str:
    if len(text) <= maximum:
        return text
    return f"{text[:maximum]}…[truncated {len(text) - maximum} chars]"


def _container(value: Any, walk: _Walk, depth: int) -> Any:
    """A plain dict or list: the common case of messages and metadata, copied without the type checks below."""
    marker = id(value)
    if marker in walk.path:
        return "[circular]"
    if depth >= walk.limits.max_depth:
        return f"[truncated: deeper than {walk.limits.max_depth} levels]"
    walk.path.add(marker)
    try:
        if type(value) is list:
            return [_clone(item, walk, depth + 1) for item in value]
        return {key if type(key) is str else str(key): _clone(item, walk, depth + 1) for key, item in value.items()}
    finally:
        walk.path.discard(marker)


def _clone(value: Any, walk: _Walk, depth: int) -> Any:
    walk.nodes += 1
    if walk.nodes > walk.limits.max_nodes:
        return "[truncated: too many values]"
    # Exact types first: the common case (str, int, dict, list) costs one lookup.
    kind = type(value)
    if kind is str:
        return truncate_string(value, walk.limits.max_string)
    if value is None or kind is bool or kind is int:
        return value
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is dict or kind is list:
        return _container(value, walk, depth)
    if isinstance(value, enum.Enum):
        return _clone(value.value, walk, depth)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        return truncate_string(str(value), walk.limits.max_string)
    if isinstance(value, (bytes, bytearray, memoryview)):
        # Binary data is not worth shipping as JSON (an audio clip, an image): say what it was.
        return f"[{type(value).__name__} {len(value)} bytes]"
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.isoformat()
        return value.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z")
    if isinstance(value, (datetime.date, datetime.time, uuid.UUID)):
        return str(value)
    if isinstance(value, BaseException):
        return {"name": type(value).__name__, "message": truncate_string(str(value), walk.limits.max_string)}
    marker = id(value)
    if marker in walk.path:
        return "[circular]"
    if depth >= walk.limits.max_depth:
        return f"[truncated: deeper than {walk.limits.max_depth} levels]"
    walk.path.add(marker)
    try:
        if isinstance(value, dict):
            out: Dict[str, Any] = {}
            for key, item in value.items():
                copied = _clone(item, walk, depth + 1)
                out[key if isinstance(key, str) else str(key)] = copied
            return out
        if isinstance(value, (list, tuple, set, frozenset)):
            return [_clone(item, walk, depth + 1) for item in value]
        # pydantic v2 models (what openai v1 returns), then v1, then dataclasses.
        dump = getattr(value, "model_dump", None)
        if callable(dump):
            return _clone(dump(mode="json", exclude_unset=True), walk, depth)
        legacy = getattr(value, "dict", None)
        if callable(legacy) and hasattr(value, "__fields__"):
            return _clone(legacy(), walk, depth)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return _clone({f.name: getattr(value, f.name) for f in dataclasses.fields(value)}, walk, depth)
        if hasattr(value, "__dict__") and not isinstance(value, type):
            return _clone({k: v for k, v in vars(value).items() if not k.startswith("_")}, walk, depth)
        return truncate_string(repr(value), walk.limits.max_string)
    except Exception:  # noqa: BLE001 — anything the application's object raises becomes a marker
        return "[unreadable]"
    finally:
        walk.path.discard(marker)
