"""``vigil.trace(...)``: a context manager (``with`` and ``async with``) and a decorator (plain and ``async def``
functions). Inside it, every trace recorded (wrapped openai calls included, across awaits) carries its attributes:
name, user, session, tags, metadata, prompt template. Given a ``model`` (or one set with ``update()`` inside), it
also records one trace of its own when it ends: its start, its latency, its input and output, and the exception if
one ended it (which is re-raised unchanged).

The scope lives in a ``contextvars.ContextVar``: asyncio tasks inherit it, threads started inside do not."""

from __future__ import annotations

from collections import abc

import datetime
import functools
import inspect
import time
from contextvars import ContextVar, Token
from typing import TYPE_CHECKING, Any, Callable, Dict, Mapping, Optional, Tuple, TypeVar, cast

from .safe_json import to_safe_json

if TYPE_CHECKING:
    from .client import Vigil

F = TypeVar("F", bound=Callable[..., Any])

#: The innermost scope's merged attributes and its Trace, or None outside every scope.
_current: ContextVar[Optional[Tuple[Dict[str, Any], "Trace"]]] = ContextVar("vigil_llm_trace", default=None)

#: Fields of a trace's own item (with a model) besides the scope's attributes.
ITEM_KEYS = ("model", "provider", "input", "output", "tokens", "cost_usd", "status", "error", "id")


def current_attributes() -> Optional[Dict[str, Any]]:
    """The attributes every trace recorded here carries, or None outside any ``trace()``."""
    scope = _current.get()
    return scope[0] if scope else None


def current_trace() -> Optional["Trace"]:
    """The innermost ``trace()`` this code runs in (to ``update()`` it from inside a decorated function), or None."""
    scope = _current.get()
    return scope[1] if scope else None


def merge(outer: Optional[Mapping[str, Any]], inner: Mapping[str, Any]) -> Dict[str, Any]:
    """Inner attributes over outer ones: single values replace, tags add up, metadata merges key by key."""
    out = dict(outer or {})
    for key, value in inner.items():
        if value is None:
            continue
        if key == "tags":
            out["tags"] = list(dict.fromkeys([*(out.get("tags") or []), *value]))
        elif key == "metadata" and isinstance(out.get("metadata"), abc.Mapping) and isinstance(value, abc.Mapping):
            out["metadata"] = {**out["metadata"], **value}
        else:
            out[key] = value
    return out


class Trace:
    """One ``vigil.trace(...)``. Entered more than once (a decorated function called again, or from several threads),
    each entry is its own copy, so concurrent calls never share state."""

    def __init__(self, client: "Vigil", attributes: Dict[str, Any], fields: Dict[str, Any]) -> None:
        self._client = client
        self._attributes = attributes
        self._fields = fields
        self._token: Optional[Token] = None
        self._t0 = 0.0
        self._started: Optional[datetime.datetime] = None

    def _copy(self) -> "Trace":
        return Trace(self._client, dict(self._attributes), dict(self._fields))

    def update(self, **fields: Any) -> None:
        """Sets fields of this trace's own item before it ends: ``output``, ``tokens``, ``model``, ``cost_usd``,
        ``metadata`` (merged), ``input``, ``provider``, ``status``, ``error``."""
        for key, value in fields.items():
            if key == "metadata" and isinstance(value, abc.Mapping):
                self._fields["metadata"] = {**(self._fields.get("metadata") or {}), **value}
            else:
                self._fields[key] = value

    # --- with / async with ---------------------------------------------------------------------------------------

    def __enter__(self) -> "Trace":
        if self._token is not None:
            raise RuntimeError("this trace() is already entered; call vigil.trace(...) again for a nested scope")
        merged = merge(current_attributes(), self._attributes)
        self._token = _current.set((merged, self))
        self._started = datetime.datetime.now(datetime.timezone.utc)
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, exc_type: Any, exc: Optional[BaseException], tb: Any) -> bool:
        latency_ms = (time.perf_counter() - self._t0) * 1000
        merged = current_attributes()
        if self._token is not None:
            try:
                _current.reset(self._token)
            except ValueError:
                # Exited in another context than it was entered in (a generator resumed elsewhere): leave it be.
                pass
            self._token = None
        if self._fields.get("model"):
            item = {k: v for k, v in self._fields.items() if k in ITEM_KEYS or k == "metadata"}
            item["start_time"] = self._started
            item["latency_ms"] = round(latency_ms, 3)
            if exc is not None and "error" not in item:
                item["error"] = exc
            self._client._record_in_scope(item, merged)
        return False

    async def __aenter__(self) -> "Trace":
        return self.__enter__()

    async def __aexit__(self, exc_type: Any, exc: Optional[BaseException], tb: Any) -> bool:
        return self.__exit__(exc_type, exc, tb)

    # --- decorator -----------------------------------------------------------------------------------------------

    def __call__(self, fn: F) -> F:
        """Runs ``fn`` inside this trace at every call. With a model, the call's arguments are its input and its
        return value its output, unless given."""
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def run_async(*args: Any, **kwargs: Any) -> Any:
                with self._copy() as scope:
                    scope._arguments(args, kwargs)
                    result = await fn(*args, **kwargs)
                    scope._result(result)
                    return result

            return cast(F, run_async)

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            with self._copy() as scope:
                scope._arguments(args, kwargs)
                result = fn(*args, **kwargs)
                scope._result(result)
                return result

        return cast(F, run)

    def _arguments(self, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
        if self._fields.get("model") and "input" not in self._fields and self._client._capture_content:
            # Copied now: the function may change its arguments before it returns.
            self._fields["input"] = to_safe_json({"args": list(args), "kwargs": kwargs} if kwargs else list(args))

    def _result(self, result: Any) -> None:
        if self._fields.get("model") and "output" not in self._fields and self._client._capture_content:
            self._fields["output"] = result
