"""``wrap_openai(client)``: records every ``chat.completions.create``, ``responses.create`` and ``embeddings.create``
of one ``openai`` client, ``OpenAI`` or ``AsyncOpenAI`` (v1 and later), plain and ``stream=True``, and what is built
on ``create`` (``chat.completions.stream()`` calls it), without changing what the application sends, receives or
catches. Methods that post on their own (``chat.completions.parse()`` in openai 1.40 and later) are not recorded.

How it stays invisible: each resource's ``create`` is replaced on that resource instance (openai caches the resource
objects on the client) by a function that calls the original with the same arguments and returns its very result;
an exception is recorded and re-raised unchanged. A stream is observed in place (stream_observer.py). Any failure in
this code is reported as VIGIL_ERR_CLIENT_INTERNAL and the call goes on untouched."""

from __future__ import annotations

import datetime
import functools
import inspect
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, TypeVar

from .openai_calls import CallRequest, CallResult, describe_error, describe_request, describe_result, get
from .stream_observer import StreamWatch, accumulator_for, watch_stream
from .trace_scope import current_attributes

if TYPE_CHECKING:
    from .client import Vigil

T = TypeVar("T")

#: Set on a wrapped resource (holding its original method): wrapping twice records once.
WRAPPED = "_vigil_llm_original_create"
OPERATIONS = (("chat.completions", ("chat", "completions")), ("responses", ("responses",)), ("embeddings", ("embeddings",)))


def wrap_openai(client: T, vigil: Optional["Vigil"] = None) -> T:
    """Records the calls of this openai client through ``vigil`` (default: the first ``Vigil`` made in the process,
    or one made from VIGIL_URL and VIGIL_PROJECT_KEY). Returns the same client."""
    from .client import default_client

    return wrap_openai_with(client, vigil if vigil is not None else default_client())


def wrap_openai_with(client: T, vigil: "Vigil") -> T:
    try:
        for operation, path in OPERATIONS:
            resource: Any = client
            for attr in path:
                resource = getattr(resource, attr, None)
            if resource is not None:
                _patch(resource, operation, vigil)
    except Exception as err:  # noqa: BLE001
        vigil._internal(err)
    return client


def _patch(resource: Any, operation: str, vigil: "Vigil") -> None:
    original = getattr(resource, "create", None)
    if not callable(original) or getattr(resource, WRAPPED, None) is not None:
        return
    if inspect.iscoroutinefunction(original):

        @functools.wraps(original)
        async def create_async(*args: Any, **kwargs: Any) -> Any:
            call = _start(operation, kwargs, vigil, True)
            try:
                result = await original(*args, **kwargs)
            except BaseException as err:
                if call is not None:
                    call.fail(err)
                raise
            if call is not None:
                call.succeed(result)
            return result

        create: Callable[..., Any] = create_async
    else:

        @functools.wraps(original)
        def create_sync(*args: Any, **kwargs: Any) -> Any:
            call = _start(operation, kwargs, vigil, False)
            try:
                result = original(*args, **kwargs)
            except BaseException as err:
                if call is not None:
                    call.fail(err)
                raise
            if call is not None:
                call.succeed(result)
            return result

        create = create_sync
    setattr(resource, "create", create)
    setattr(resource, WRAPPED, original)


def _start(operation: str, kwargs: Dict[str, Any], vigil: "Vigil", is_async: bool) -> Optional["Call"]:
    try:
        return Call(operation, kwargs, vigil, is_async)
    except Exception as err:  # noqa: BLE001
        vigil._internal(err)
        return None


def _ms(seconds: float) -> float:
    """Milliseconds to the microsecond: more digits are noise."""
    return round(seconds * 1000, 3)


class Call:
    """One call, from ``create()`` to its answer (or, for a stream, to its end). Records exactly one trace."""

    __slots__ = ("operation", "vigil", "is_async", "scope", "request", "started", "t0", "first_chunk", "recorded")

    def __init__(self, operation: str, kwargs: Dict[str, Any], vigil: "Vigil", is_async: bool) -> None:
        self.operation = operation
        self.vigil = vigil
        self.is_async = is_async
        self.scope = current_attributes()
        self.request: CallRequest = describe_request(operation, kwargs, vigil._capture_content)
        self.started = datetime.datetime.now(datetime.timezone.utc)
        self.t0 = time.perf_counter()
        self.first_chunk: Optional[float] = None
        self.recorded = False

    def succeed(self, value: Any) -> None:
        try:
            if self.request.stream:
                acc = accumulator_for(self.operation, self.vigil._capture_content)
                if acc is not None:
                    request_id = _request_id(get(value, "response"))

                    def chunk(c: Any) -> None:
                        if self.first_chunk is None:
                            self.first_chunk = time.perf_counter()
                        acc.add(c)

                    def end(how: str, error: Optional[BaseException]) -> None:
                        result = acc.result()
                        if how == "failed" and error is not None:
                            e = describe_error(error)
                            result = result._replace(status=e.status, error=e.error, metadata={**result.metadata, **e.metadata})
                        elif how == "left":
                            result = result._replace(metadata={**result.metadata, "stream_left_early": True})
                        self.finish(result, time.perf_counter(), request_id)

                    if watch_stream(value, StreamWatch(chunk, end), self.is_async):
                        return
            self.finish(describe_result(self.operation, value, self.vigil._capture_content), time.perf_counter(), _request_id(value))
        except Exception as err:  # noqa: BLE001
            self.vigil._internal(err)

    def fail(self, err: BaseException) -> None:
        try:
            self.finish(describe_error(err), time.perf_counter(), None)
        except Exception as e:  # noqa: BLE001
            self.vigil._internal(e)

    def finish(self, result: CallResult, ended: float, request_id: Optional[str]) -> None:
        if self.recorded:
            return
        self.recorded = True
        request = self.request
        metadata: Dict[str, Any] = {"operation": self.operation}
        if request.stream:
            metadata["stream"] = True
        if request.parameters:
            metadata["parameters"] = request.parameters
        if self.first_chunk is not None:
            metadata["time_to_first_chunk_ms"] = _ms(self.first_chunk - self.t0)
        if request_id:
            metadata["request_id"] = request_id
        metadata.update(result.metadata)
        scope = self.scope or {}
        capture = self.vigil._capture_content
        self.vigil._record_in_scope({
            "model": result.model or request.model or "unknown",
            "name": scope.get("name") or f"openai.{self.operation}",
            "provider": "openai",
            "status": result.status or "ok",
            "error": result.error,
            "start_time": self.started,
            "latency_ms": max(_ms(ended - self.t0), 0.001),
            "tokens": result.tokens,
            "input": request.input if capture else None,
            "output": result.output if capture else None,
            "metadata": metadata,
        }, self.scope, copied=True)


def _request_id(value: Any) -> Optional[str]:
    """openai v1 puts the x-request-id header on ``_request_id`` of a parsed response."""
    rid = get(value, "_request_id")
    if isinstance(rid, str):
        return rid
    headers = get(value, "headers")
    try:
        rid = headers.get("x-request-id") if headers is not None else None
    except Exception:  # noqa: BLE001
        return None
    return rid if isinstance(rid, str) else None
