"""Observes an openai stream while the application reads it. The Stream (or AsyncStream) the application receives is
the one openai made; only its ``_iterator`` is replaced (what ``for``/``async for``, ``next()`` and openai's own
stream helpers read), so every chunk reaches the application as the very object openai parsed, errors are raised
as they are, and the stream's own methods (``close()``, ``response``, ``with``) are untouched. The trace is
recorded when the stream ends, fails, is closed or is dropped."""

from __future__ import annotations

from typing import Any, AsyncIterator, Callable, Dict, Iterator, List, Optional

from .openai_calls import CallResult, chat_tokens, describe_response, get


class ChatAccumulator:
    """Chat completion chunks: content by choice, tool-call arguments by index, usage from the last chunk."""

    def __init__(self, capture_content: bool) -> None:
        self.capture = capture_content
        self.model: Optional[str] = None
        self.usage: Any = None
        self.choices: Dict[int, Dict[str, Any]] = {}

    def add(self, chunk: Any) -> None:
        model = get(chunk, "model")
        if isinstance(model, str):
            self.model = model
        usage = get(chunk, "usage")
        if usage is not None:
            self.usage = usage
        for c in get(chunk, "choices") or []:
            index = get(c, "index")
            state = self.choices.setdefault(index if isinstance(index, int) else 0, {"content": [], "tool_calls": {}, "role": None, "finish_reason": None})
            reason = get(c, "finish_reason")
            if isinstance(reason, str):
                state["finish_reason"] = reason
            delta = get(c, "delta")
            if delta is None:
                continue
            role = get(delta, "role")
            if isinstance(role, str):
                state["role"] = role
            content = get(delta, "content")
            if isinstance(content, str) and self.capture:
                state["content"].append(content)
            for t in get(delta, "tool_calls") or []:
                ti = get(t, "index")
                call = state["tool_calls"].setdefault(ti if isinstance(ti, int) else 0, {"id": None, "type": None, "name": [], "arguments": []})
                for key in ("id", "type"):
                    if isinstance(get(t, key), str):
                        call[key] = get(t, key)
                fn = get(t, "function")
                if isinstance(get(fn, "name"), str):
                    call["name"].append(get(fn, "name"))
                if isinstance(get(fn, "arguments"), str) and self.capture:
                    call["arguments"].append(get(fn, "arguments"))

    def result(self) -> CallResult:
        ordered = [self.choices[i] for i in sorted(self.choices)]
        messages: List[Dict[str, Any]] = []
        for s in ordered:
            text = "".join(s["content"])
            message: Dict[str, Any] = {"role": s["role"] or "assistant", "content": text or (None if s["tool_calls"] else "")}
            if s["tool_calls"]:
                message["tool_calls"] = [
                    {"id": c["id"], "type": c["type"] or "function", "function": {"name": "".join(c["name"]), "arguments": "".join(c["arguments"])}}
                    for _, c in sorted(s["tool_calls"].items())
                ]
            messages.append(message)
        reasons = [s["finish_reason"] for s in ordered if s["finish_reason"]]
        tokens = chat_tokens(self.usage)
        metadata: Dict[str, Any] = {}
        if reasons:
            metadata["finish_reason"] = reasons[0] if len(reasons) == 1 else reasons
        # Token counts come only with stream_options={"include_usage": True}; a trace without them says so.
        if not tokens:
            metadata["usage_missing"] = True
        output = (messages[0] if len(messages) == 1 else messages) if self.capture else None
        return CallResult(model=self.model, tokens=tokens, output=output, metadata=metadata)


class ResponsesAccumulator:
    """Responses API events: the final response.completed (or failed, incomplete) carries everything."""

    def __init__(self, capture_content: bool) -> None:
        self.capture = capture_content
        self.final: Any = None
        self.model: Optional[str] = None
        self.text: List[str] = []
        self.error: Optional[str] = None

    def add(self, event: Any) -> None:
        kind = get(event, "type")
        response = get(event, "response")
        if isinstance(get(response, "model"), str):
            self.model = get(response, "model")
        if kind in ("response.completed", "response.failed", "response.incomplete"):
            self.final = response
        elif kind == "response.output_text.delta" and isinstance(get(event, "delta"), str):
            self.text.append(get(event, "delta"))
        elif kind == "error":
            message = get(event, "message")
            self.error = message if isinstance(message, str) else "the stream reported an error"

    def result(self) -> CallResult:
        if self.final is not None:
            r = describe_response(self.final, self.capture)
            if isinstance(r.output, list) and self.text and self.capture:
                r = r._replace(output="".join(self.text))
            return r
        return CallResult(model=self.model, output=("".join(self.text) or None) if self.capture else None,
                          status="error" if self.error else None, error=self.error, metadata={"usage_missing": True})


def accumulator_for(operation: str, capture_content: bool) -> Any:
    if operation == "chat.completions":
        return ChatAccumulator(capture_content)
    if operation == "responses":
        return ResponsesAccumulator(capture_content)
    return None


class StreamWatch:
    """What the wrapper does with a stream's chunks and its end; ``end(how, error)`` with how = done | left | failed."""

    def __init__(self, chunk: Callable[[Any], None], end: Callable[[str, Optional[BaseException]], None]) -> None:
        self.chunk = chunk
        self.end = end


def _guarded(fn: Callable[[], None]) -> None:
    try:
        fn()
    except Exception:  # noqa: BLE001 — the stream belongs to the application
        pass


def watch_iterator(it: Iterator[Any], watch: StreamWatch) -> Iterator[Any]:
    try:
        for chunk in it:
            _guarded(lambda: watch.chunk(chunk))
            yield chunk
    except GeneratorExit:
        _guarded(lambda: watch.end("left", None))
        raise
    except BaseException as err:
        _guarded(lambda: watch.end("failed", err))
        raise
    _guarded(lambda: watch.end("done", None))


async def watch_async_iterator(it: AsyncIterator[Any], watch: StreamWatch) -> AsyncIterator[Any]:
    try:
        async for chunk in it:
            _guarded(lambda: watch.chunk(chunk))
            yield chunk
    except GeneratorExit:
        _guarded(lambda: watch.end("left", None))
        raise
    except BaseException as err:
        _guarded(lambda: watch.end("failed", err))
        raise
    _guarded(lambda: watch.end("done", None))


def watch_stream(stream: Any, watch: StreamWatch, is_async: bool) -> bool:
    """Observes ``stream`` in place and returns True, or False when it is not a stream this client can watch
    (openai's Stream and AsyncStream keep their chunk iterator in ``_iterator``)."""
    inner = getattr(stream, "_iterator", None)
    if inner is None:
        return False
    try:
        stream._iterator = watch_async_iterator(inner, watch) if is_async else watch_iterator(inner, watch)
    except (AttributeError, TypeError):
        return False
    close = getattr(stream, "close", None)
    if callable(close):
        # Closed before its end (a `with` block left early): the trace is recorded then, not when it is collected.
        if is_async:
            async def close_async(*args: Any, **kwargs: Any) -> Any:
                _guarded(lambda: watch.end("left", None))
                return await close(*args, **kwargs)

            _set(stream, "close", close_async)
        else:
            def close_sync(*args: Any, **kwargs: Any) -> Any:
                _guarded(lambda: watch.end("left", None))
                return close(*args, **kwargs)

            _set(stream, "close", close_sync)
    return True


def _set(obj: Any, name: str, value: Any) -> None:
    try:
        setattr(obj, name, value)
    except (AttributeError, TypeError):
        pass
