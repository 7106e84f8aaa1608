"""What ``Vigil.record()`` accepts is lenient (a datetime or epoch seconds for ``start_time``, an exception for
``error``, any value for metadata); what goes on the wire is the strict item the server validates field by field
(trace_item.py). This is the one place where the first becomes the second: unknown keys are left out (the server
refuses them), numbers must be finite and not negative, and every free-form value is copied to plain JSON data at
the moment of the call, so a later change by the application changes nothing."""

from __future__ import annotations

from collections import abc

import datetime
import math
import uuid
from typing import Any, Dict, List, Mapping, Optional

from .safe_json import to_safe_json
from .trace_item import PromptTemplateRef, TraceItem, TraceTokens

#: Error text is capped: a provider's error can quote the whole request back.
MAX_ERROR_CHARS = 8192

#: What a ``trace()`` scope gives every trace made inside it.
SCOPE_KEYS = ("name", "user_id", "session_id", "tags", "metadata", "prompt_template")


def _is_map(value: Any) -> bool:
    # A dict first: isinstance against the Mapping ABC costs a microsecond or more per call.
    return type(value) is dict or isinstance(value, abc.Mapping)


def _same(value: Any) -> Any:
    return value


def _text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value != "" else None


def _count(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) and value >= 0 else None


def iso_time(value: Any) -> Optional[str]:
    """RFC 3339 in UTC with milliseconds; a naive datetime is taken as local time, a number as epoch seconds."""
    if isinstance(value, str):
        return value
    if isinstance(value, datetime.datetime):
        moment = value if value.tzinfo else value.astimezone()
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        try:
            moment = datetime.datetime.fromtimestamp(value, datetime.timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    else:
        return None
    return moment.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def error_text(value: Any) -> Optional[str]:
    if value is None:
        return None
    try:
        if isinstance(value, BaseException):
            message = str(value)
            text = f"{type(value).__name__}: {message}" if message else type(value).__name__
        elif isinstance(value, str):
            text = value
        else:
            text = str(to_safe_json(value))
    except Exception:  # noqa: BLE001
        text = "[unreadable error]"
    if len(text) > MAX_ERROR_CHARS:
        return f"{text[:MAX_ERROR_CHARS]}…[truncated {len(text) - MAX_ERROR_CHARS} chars]"
    return text


def _tokens(value: Any) -> Optional[TraceTokens]:
    if not _is_map(value):
        return None
    out: Dict[str, int] = {}
    for key in ("input", "output", "cache_read", "total"):
        n = _count(value.get(key))
        if n is not None:
            out[key] = int(round(n))
    return out or None  # type: ignore[return-value]


def _template(value: Any) -> Optional[PromptTemplateRef]:
    if not _is_map(value) or not _text(value.get("name")) or not isinstance(value.get("raw"), str):
        return None
    out: PromptTemplateRef = {"name": value["name"], "raw": value["raw"]}
    variables = to_safe_json(value.get("variables"))
    if isinstance(variables, dict):
        out["variables"] = variables
    return out


def _object(value: Any) -> Optional[Dict[str, Any]]:
    copied = to_safe_json(value)
    if copied is None:
        return None
    return copied if isinstance(copied, dict) else {"value": copied}


def _tags(*lists: Any) -> Optional[List[str]]:
    seen: Dict[str, None] = {}
    for tags in lists:
        if isinstance(tags, (list, tuple)):
            for tag in tags:
                if _text(tag):
                    seen[tag] = None
    return list(seen) or None


def normalise_item(item: Mapping[str, Any], scope: Optional[Mapping[str, Any]] = None, copied: bool = False) -> Optional[TraceItem]:
    """The wire item for ``item``, with the attributes of the enclosing ``trace()`` scope underneath (the item's own
    fields win, tags add up, metadata merges key by key). None when there is no model: the server would refuse it.
    ``copied``: input, output and metadata are plain JSON already (wrap_openai copied them at the call)."""
    safe = _same if copied else to_safe_json
    if not _is_map(item):
        return None
    model = _text(item.get("model"))
    if not model:
        return None
    scope = scope or {}
    out: TraceItem = {"id": _text(item.get("id")) or str(uuid.uuid4()), "model": model}
    name = _text(item.get("name")) or _text(scope.get("name"))
    if name:
        out["name"] = name
    provider = _text(item.get("provider"))
    if provider:
        out["provider"] = provider
    error = error_text(item.get("error"))
    status = item.get("status")
    if status in ("ok", "error"):
        out["status"] = status
    elif error is not None:
        out["status"] = "error"
    if error is not None:
        out["error"] = error
    start = iso_time(item.get("start_time"))
    if start:
        out["start_time"] = start
    latency = _count(item.get("latency_ms"))
    if latency is not None:
        out["latency_ms"] = latency
    tokens = _tokens(item.get("tokens"))
    if tokens:
        out["tokens"] = tokens
    cost = _count(item.get("cost_usd"))
    if cost is not None:
        out["cost_usd"] = cost
    if item.get("input") is not None:
        out["input"] = safe(item["input"])
    if item.get("output") is not None:
        out["output"] = safe(item["output"])
    template = _template(item.get("prompt_template")) or _template(scope.get("prompt_template"))
    if template:
        out["prompt_template"] = template
    user = _text(item.get("user_id")) or _text(scope.get("user_id"))
    if user:
        out["user_id"] = user
    session = _text(item.get("session_id")) or _text(scope.get("session_id"))
    if session:
        out["session_id"] = session
    tags = _tags(scope.get("tags"), item.get("tags"))
    if tags:
        out["tags"] = tags
    if scope.get("metadata") is not None or item.get("metadata") is not None:
        own = item.get("metadata")
        metadata = {**(_object(scope.get("metadata")) or {}), **((own if copied and isinstance(own, dict) else _object(own)) or {})}
        if metadata:
            out["metadata"] = metadata
    return out
