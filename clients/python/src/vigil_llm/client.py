"""``Vigil(project_key=…, base_url=…)``: the one object an application holds. It turns traces (from wrapped openai
clients, ``trace()`` scopes, or ``record()``) into encoded items and hands them to the sender thread. No method
raises into the application: a misconfigured client records nothing and says why once, through ``on_error``."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Dict, List, Mapping, Optional, TypeVar, Union

from . import errors
from .delivery import Delivery
from .encode_item import encode_item
from .errors import VigilClientError
from .exit_flush import register_exit_flush, unregister_exit_flush
from .normalise_item import normalise_item
from .options import ResolvedOptions, resolve_options
from .trace_buffer import TraceBuffer
from .trace_item import PromptTemplateRef
from .trace_scope import Trace, current_attributes
from .transport import Transport

T = TypeVar("T")

logger = logging.getLogger("vigil_llm")
WARN_EVERY_S = 60.0


def _warn_once_a_minute() -> Callable[[VigilClientError], None]:
    """The default on_error: a logging warning, at most once a minute per code, so a dead server cannot flood logs."""
    last: Dict[str, float] = {}
    lock = threading.Lock()

    def warn(err: VigilClientError) -> None:
        now = time.monotonic()
        with lock:
            if now - last.get(err.code, -WARN_EVERY_S * 2) < WARN_EVERY_S:
                return
            last[err.code] = now
        logger.warning("%s: %s", err.code, err.message)

    return warn


class Vigil:
    """Sends LLM call traces to Vigil's ``POST /v1/traces``: buffered, batched by a background thread, bounded, and
    flushed when the interpreter exits. Times are in seconds."""

    def __init__(
        self,
        project_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        batch_size: int = 100,
        flush_interval: float = 1.0,
        max_buffer_items: int = 10_000,
        max_buffer_bytes: int = 32 << 20,
        max_batch_bytes: int = 2 << 20,
        max_item_bytes: int = 512 << 10,
        max_retries: int = 5,
        retry_base: float = 0.5,
        retry_max: float = 30.0,
        timeout: float = 10.0,
        shutdown_timeout: float = 5.0,
        gzip: bool = True,
        flush_at_exit: bool = True,
        capture_content: bool = True,
        on_error: Optional[Callable[[VigilClientError], None]] = None,
    ) -> None:
        """``project_key`` defaults to env VIGIL_PROJECT_KEY, ``base_url`` to env VIGIL_URL, else
        http://127.0.0.1:9095 (``/v1/traces`` is added; a path prefix is kept)."""
        self._options: ResolvedOptions = resolve_options({
            "project_key": project_key, "base_url": base_url, "batch_size": batch_size, "flush_interval": flush_interval,
            "max_buffer_items": max_buffer_items, "max_buffer_bytes": max_buffer_bytes, "max_batch_bytes": max_batch_bytes,
            "max_item_bytes": max_item_bytes, "max_retries": max_retries, "retry_base": retry_base, "retry_max": retry_max,
            "timeout": timeout, "shutdown_timeout": shutdown_timeout, "gzip": gzip, "flush_at_exit": flush_at_exit,
            "capture_content": capture_content,
        })
        o = self._options
        self._on_error = on_error if callable(on_error) else _warn_once_a_minute()
        self._capture_content = o.capture_content
        self._buffer = TraceBuffer(o.max_buffer_items, o.max_buffer_bytes)
        self._invalid = 0
        self._disabled_drops = 0
        self._closed = False
        self._close_lock = threading.Lock()
        self._delivery: Optional[Delivery] = None
        if o.unusable:
            self._report(VigilClientError(errors.CONFIG, f"vigil_llm records nothing: {o.unusable}"))
        else:
            assert o.endpoint and o.project_key
            self._delivery = Delivery(self._buffer, Transport(o.endpoint, o.project_key, o.timeout, o.gzip_min_bytes), o, self._report)
            if o.flush_at_exit:
                register_exit_flush(self)
        _set_default(self)

    # --- recording -------------------------------------------------------------------------------------------------

    def record(self, item: Mapping[str, Any]) -> Optional[str]:
        """Records one trace by hand (a trace item: ``model`` required; ``start_time`` may be a datetime or epoch
        seconds, ``error`` an exception). Returns its id, or None when it had no model and was dropped."""
        return self._record_in_scope(item, current_attributes())

    def _record_in_scope(self, item: Mapping[str, Any], scope: Optional[Mapping[str, Any]], copied: bool = False) -> Optional[str]:
        try:
            normalised = normalise_item(item, scope, copied)
            if normalised is None:
                self._invalid += 1
                self._report(VigilClientError(errors.INVALID_ITEM, "a trace without a model (a non-empty string) was dropped", 1))
                return None
            if self._delivery is None:
                self._disabled_drops += 1
                return normalised["id"]
            self._delivery.enqueue(encode_item(normalised, self._options.max_item_bytes))
            return normalised["id"]
        except Exception as err:  # noqa: BLE001 — the client never raises into the application
            self._internal(err)
            return None

    def trace(
        self,
        name: Optional[Union[str, Callable[..., Any]]] = None,
        *,
        model: Optional[str] = None,
        user_id: Optional[str] = None,
        session_id: Optional[str] = None,
        tags: Optional[List[str]] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        prompt_template: Optional[PromptTemplateRef] = None,
        **fields: Any,
    ) -> Trace:
        """A scope (``with``, ``async with``, or a decorator) whose attributes every trace inside carries; with a
        ``model`` it records a trace of its own too (see trace_scope.py). Other keyword arguments (``input``,
        ``provider``, ``tokens``, ``cost_usd``) are fields of that trace."""
        if callable(name):
            # A bare @vigil.trace: the scope is named after the function.
            fn = name
            return self.trace(getattr(fn, "__qualname__", None), model=model, user_id=user_id, session_id=session_id, tags=tags,
                              metadata=metadata, prompt_template=prompt_template, **fields)(fn)  # type: ignore[return-value]
        attributes: Dict[str, Any] = {
            k: v for k, v in (("name", name), ("user_id", user_id), ("session_id", session_id), ("tags", tags),
                              ("metadata", dict(metadata) if metadata else None), ("prompt_template", prompt_template)) if v is not None
        }
        own = {k: v for k, v in fields.items() if v is not None}
        if model:
            own["model"] = model
        return Trace(self, attributes, own)

    def wrap_openai(self, client: T) -> T:
        """Records every ``chat.completions.create``, ``responses.create`` and ``embeddings.create`` of this openai
        client (``OpenAI`` or ``AsyncOpenAI``, streams included); returns the same client."""
        from .wrap_openai import wrap_openai_with

        return wrap_openai_with(client, self)

    # --- lifecycle -------------------------------------------------------------------------------------------------

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Sends everything recorded so far; True when it all settled within ``timeout`` (default shutdown_timeout)."""
        if self._delivery is None:
            return True
        try:
            return self._delivery.flush(self._options.shutdown_timeout if timeout is None else max(0.0, timeout))
        except Exception as err:  # noqa: BLE001
            self._internal(err)
            return False

    def close(self, timeout: Optional[float] = None) -> None:
        """Flushes, then stops: what could not be sent by the deadline is dropped and counted; later traces are
        dropped. Safe to call twice."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        unregister_exit_flush(self)
        if self._delivery is None:
            return
        self.flush(timeout)
        self._delivery.stop()

    def _flush_at_exit(self) -> None:
        if not self._closed and self._buffer.items > 0:
            self.close()

    def __enter__(self) -> "Vigil":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def stats(self) -> Dict[str, int]:
        """``sent`` (accepted by Vigil), ``dropped`` (given up on: buffer full, refused, retries exhausted, not
        delivered at close, invalid), ``rejected`` (refused one by one by Vigil), ``retries``, ``buffered``."""
        counts = dict(self._delivery.counts) if self._delivery else {"sent": 0, "dropped": 0, "rejected": 0, "retries": 0}
        counts["dropped"] += self._invalid + self._disabled_drops
        counts["buffered"] = self._buffer.items
        counts["buffered_bytes"] = self._buffer.bytes
        return counts

    # --- reporting -------------------------------------------------------------------------------------------------

    def _report(self, err: VigilClientError) -> None:
        try:
            self._on_error(err)
        except Exception:  # noqa: BLE001 — on_error is the application's; its failure is not ours to raise
            pass

    def _internal(self, err: BaseException) -> None:
        self._report(VigilClientError(errors.INTERNAL, f"{type(err).__name__}: {err}"))


_default: Optional[Vigil] = None
_default_lock = threading.Lock()


def _set_default(client: Vigil) -> None:
    global _default
    with _default_lock:
        if _default is None:
            _default = client


def default_client() -> Vigil:
    """The first ``Vigil`` made in this process, or one made now from VIGIL_URL and VIGIL_PROJECT_KEY."""
    with _default_lock:
        existing = _default
    return existing if existing is not None else Vigil()
