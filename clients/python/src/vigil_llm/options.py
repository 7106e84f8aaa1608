"""The client's options, their defaults and the environment variables that stand in for them. Configuration never
raises: a missing key or an unusable URL makes a client that records nothing and says why once, through
``on_error``; a number that is not a positive finite value falls back to its default. Times are seconds."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, Mapping, Optional
from urllib.parse import urlsplit, urlunsplit

INGEST_PATH = "v1/traces"
DEFAULT_URL = "http://127.0.0.1:9095"


@dataclass(frozen=True)
class ResolvedOptions:
    endpoint: Optional[str]
    project_key: Optional[str]
    #: Why the client cannot send, when it cannot.
    unusable: Optional[str]
    batch_size: int = 100
    flush_interval: float = 1.0
    max_buffer_items: int = 10_000
    max_buffer_bytes: int = 32 << 20
    max_batch_bytes: int = 2 << 20
    max_item_bytes: int = 512 << 10
    max_retries: int = 5
    retry_base: float = 0.5
    retry_max: float = 30.0
    timeout: float = 10.0
    shutdown_timeout: float = 5.0
    #: Gzip bodies of at least this many bytes; 0 turns compression off.
    gzip_min_bytes: int = 1024
    flush_at_exit: bool = True
    capture_content: bool = True


def ingest_endpoint(url: str) -> str:
    """The ingest URL for ``url``: a base (any path prefix kept) gets ``/v1/traces`` added; a URL ending so is kept."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{url!r} is not an http:// or https:// URL")
    path = parts.path.rstrip("/")
    if path.endswith("/" + INGEST_PATH):
        return urlunsplit((parts.scheme, parts.netloc, path, "", ""))
    return urlunsplit((parts.scheme, parts.netloc, f"{path}/{INGEST_PATH}", "", ""))


def _count(value: Any, default: int, allow_zero: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return default
    return int(value) if value > 0 or (allow_zero and value == 0) else default


def _seconds(value: Any, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        return default
    return float(value)


def resolve_options(options: Mapping[str, Any], env: Optional[Mapping[str, str]] = None) -> ResolvedOptions:
    env = os.environ if env is None else env
    url = options.get("base_url") or env.get("VIGIL_URL") or DEFAULT_URL
    key = options.get("project_key") or env.get("VIGIL_PROJECT_KEY") or None
    endpoint: Optional[str] = None
    unusable: Optional[str] = None
    try:
        endpoint = ingest_endpoint(str(url))
    except ValueError as err:
        unusable = f"the base_url {url!r} is not usable ({err})"
    if not key and not unusable:
        unusable = "no project key: pass project_key or set VIGIL_PROJECT_KEY"
    d = ResolvedOptions(None, None, None)
    return ResolvedOptions(
        endpoint=endpoint,
        project_key=str(key) if key else None,
        unusable=unusable,
        batch_size=_count(options.get("batch_size"), d.batch_size),
        flush_interval=_seconds(options.get("flush_interval"), d.flush_interval),
        max_buffer_items=_count(options.get("max_buffer_items"), d.max_buffer_items),
        max_buffer_bytes=_count(options.get("max_buffer_bytes"), d.max_buffer_bytes),
        max_batch_bytes=_count(options.get("max_batch_bytes"), d.max_batch_bytes),
        max_item_bytes=_count(options.get("max_item_bytes"), d.max_item_bytes),
        max_retries=_count(options.get("max_retries"), d.max_retries, allow_zero=True),
        retry_base=_seconds(options.get("retry_base"), d.retry_base),
        retry_max=_seconds(options.get("retry_max"), d.retry_max),
        timeout=_seconds(options.get("timeout"), d.timeout),
        shutdown_timeout=_seconds(options.get("shutdown_timeout"), d.shutdown_timeout),
        gzip_min_bytes=0 if options.get("gzip") is False else d.gzip_min_bytes,
        flush_at_exit=options.get("flush_at_exit") is not False,
        capture_content=options.get("capture_content") is not False,
    )
