"""What a trace records of one openai call, read from the request's keyword arguments and the response (or error)
the ``openai`` package (v1 and later) returned: chat completions, the Responses API and embeddings. Responses are
pydantic models (attributes) and are read by attribute or key, never converted whole; nothing here changes them."""

from __future__ import annotations

from collections import abc

import math
from typing import Any, Dict, List, Mapping, NamedTuple, Optional

from .safe_json import to_safe_json

INPUT_FIELDS = {"chat.completions": ("messages",), "responses": ("input", "instructions"), "embeddings": ("input",)}


def get(obj: Any, key: str) -> Any:
    """``obj[key]`` for a mapping, ``obj.key`` for a model; None when absent or unreadable."""
    try:
        if type(obj) is dict or isinstance(obj, abc.Mapping):
            return obj.get(key)
        return getattr(obj, key, None)
    except Exception:  # noqa: BLE001
        return None


def _num(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def _list(value: Any) -> List[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


class CallRequest(NamedTuple):
    model: Optional[str]
    stream: bool
    input: Any
    #: The other request fields (temperature, max_tokens, tools, …), kept in metadata.
    parameters: Optional[Dict[str, Any]]


class CallResult(NamedTuple):
    model: Optional[str] = None
    status: Optional[str] = None
    error: Optional[str] = None
    tokens: Optional[Dict[str, float]] = None
    output: Any = None
    metadata: Dict[str, Any] = {}


def describe_request(operation: str, kwargs: Mapping[str, Any], capture_content: bool) -> CallRequest:
    """Copied at the call: applications append the answer to the same messages list right after it."""
    fields = INPUT_FIELDS[operation]
    parameters = {k: v for k, v in kwargs.items() if k not in ("model", "stream") and k not in fields and not k.startswith("extra_")}
    if operation == "responses" and kwargs.get("instructions") is not None:
        raw_input: Any = {"instructions": kwargs.get("instructions"), "input": kwargs.get("input")}
    else:
        raw_input = kwargs.get(fields[0])
    model = kwargs.get("model")
    return CallRequest(
        model=model if isinstance(model, str) else None,
        stream=kwargs.get("stream") is True,
        input=to_safe_json(raw_input) if capture_content else None,
        parameters=to_safe_json(parameters) if parameters else None,
    )


def _tokens(**counts: Optional[float]) -> Optional[Dict[str, float]]:
    out = {k: v for k, v in counts.items() if v is not None}
    return out or None


def chat_tokens(usage: Any) -> Optional[Dict[str, float]]:
    """Chat usage: prompt_tokens, completion_tokens, prompt_tokens_details.cached_tokens, total_tokens."""
    if usage is None:
        return None
    return _tokens(input=_num(get(usage, "prompt_tokens")), output=_num(get(usage, "completion_tokens")),
                   cache_read=_num(get(get(usage, "prompt_tokens_details"), "cached_tokens")), total=_num(get(usage, "total_tokens")))


def responses_tokens(usage: Any) -> Optional[Dict[str, float]]:
    """Responses usage: input_tokens, output_tokens, input_tokens_details.cached_tokens, total_tokens."""
    if usage is None:
        return None
    return _tokens(input=_num(get(usage, "input_tokens")), output=_num(get(usage, "output_tokens")),
                   cache_read=_num(get(get(usage, "input_tokens_details"), "cached_tokens")), total=_num(get(usage, "total_tokens")))


def _one_or_all(values: List[Any]) -> Any:
    """One message, or the list of them when the call asked for several choices (``n`` > 1)."""
    return values[0] if len(values) == 1 else values


def describe_chat_completion(value: Any, capture_content: bool) -> CallResult:
    choices = _list(get(value, "choices"))
    reasons = [r for r in (get(c, "finish_reason") for c in choices) if isinstance(r, str)]
    tokens = chat_tokens(get(value, "usage"))
    metadata: Dict[str, Any] = {}
    if reasons:
        metadata["finish_reason"] = _one_or_all(reasons)
    if not tokens:
        metadata["usage_missing"] = True
    model = get(value, "model")
    return CallResult(
        model=model if isinstance(model, str) else None,
        tokens=tokens,
        output=to_safe_json(_one_or_all([get(c, "message") for c in choices])) if capture_content else None,
        metadata=metadata,
    )


def describe_response(value: Any, capture_content: bool) -> CallResult:
    output = _list(get(value, "output"))
    only_messages = all(get(o, "type") == "message" for o in output)
    text = get(value, "output_text")
    tokens = responses_tokens(get(value, "usage"))
    metadata: Dict[str, Any] = {}
    status = get(value, "status")
    if isinstance(status, str):
        metadata["response_status"] = status
    if get(value, "incomplete_details") is not None:
        metadata["incomplete_details"] = to_safe_json(get(value, "incomplete_details"))
    if not tokens:
        metadata["usage_missing"] = True
    failed = status == "failed"
    model = get(value, "model")
    # Text is what a reader wants to see; tool calls and other items only survive in the full output list.
    shown = text if only_messages and isinstance(text, str) else output
    return CallResult(
        model=model if isinstance(model, str) else None,
        tokens=tokens,
        output=to_safe_json(shown) if capture_content else None,
        status="error" if failed else None,
        error=str(get(get(value, "error"), "message") or "the response failed") if failed else None,
        metadata=metadata,
    )


def describe_embeddings(value: Any) -> CallResult:
    data = _list(get(value, "data"))
    first = get(data[0], "embedding") if data else None
    usage = get(value, "usage")
    tokens = _tokens(input=_num(get(usage, "prompt_tokens")), total=_num(get(usage, "total_tokens")))
    model = get(value, "model")
    return CallResult(
        model=model if isinstance(model, str) else None,
        tokens=tokens,
        # Vectors are not worth storing as trace output: their count and size say what came back.
        output={"embeddings": len(data), "dimensions": len(first) if isinstance(first, (list, tuple)) else None},
        metadata={} if tokens else {"usage_missing": True},
    )


def describe_result(operation: str, value: Any, capture_content: bool) -> CallResult:
    if value is None:
        return CallResult(metadata={"usage_missing": True})
    if operation == "chat.completions":
        return describe_chat_completion(value, capture_content)
    if operation == "responses":
        return describe_response(value, capture_content)
    return describe_embeddings(value)


def describe_error(err: BaseException) -> CallResult:
    """An openai error (APIStatusError and its subclasses, APIConnectionError, APITimeoutError) as trace fields."""
    metadata: Dict[str, Any] = {}
    status = _num(get(err, "status_code"))
    if status is not None:
        metadata["http_status"] = int(status)
    for attr, key in (("type", "error_type"), ("code", "error_code"), ("request_id", "request_id")):
        v = get(err, attr)
        if isinstance(v, str):
            metadata[key] = v
    message = get(err, "message")
    text = message if isinstance(message, str) and message else str(err)
    name = type(err).__name__
    return CallResult(status="error", error=f"{name}: {text}" if text else name, metadata=metadata)
