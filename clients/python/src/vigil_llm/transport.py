"""One ``POST /v1/traces`` of a batch, and what its answer means for the batch (docs/llm-wire-contract.md): header
``X-Service-Project-Key``, body ``{"traces": [...]}``, gzip when that saves bytes; 202 with per-item errors, 401,
400, 413, 429 with Retry-After, 5xx.

http.client rather than urllib: one kept-alive connection serves every batch (batches go one at a time), and a
connection the server closed is simply opened again on the next attempt."""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import ssl
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Union
from urllib.parse import urlsplit

from ._version import __version__
from .encode_item import EncodedItem
from .retry_delay import parse_retry_after

#: Answers are read up to this many bytes: enough for any error list the server sends for a batch.
MAX_ANSWER_BYTES = 1 << 20


class Accepted(NamedTuple):
    accepted: int
    rejected: int
    errors: List[Dict[str, Any]]


class Retry(NamedTuple):
    """Worth another attempt: a network error, a timeout, 5xx or 429."""

    reason: str
    status: Optional[int] = None
    #: Seconds, from Retry-After.
    retry_after: Optional[float] = None


class TooLarge(NamedTuple):
    """413: the batch is over the server's body or batch limit."""

    reason: str


class Refused(NamedTuple):
    """Any other 4xx (or an unexpected status): sending the same batch again cannot succeed."""

    status: int
    reason: str


Outcome = Union[Accepted, Retry, TooLarge, Refused]


def _server_reason(status: int, text: str) -> str:
    """The server's message from the control plane's ``{"error": {"code", "message"}}``, or the raw text."""
    said = ""
    try:
        err = json.loads(text).get("error")
        if isinstance(err, dict):
            said = ": ".join(str(err[k]) for k in ("code", "message") if isinstance(err.get(k), str))
    except (ValueError, AttributeError):
        said = text[:200].strip()
    return f"HTTP {status}: {said}" if said else f"HTTP {status}"


def classify(status: int, retry_after: Optional[str], text: str, items: int) -> Outcome:
    """What an answer means for the batch it answers."""
    if 200 <= status < 300:
        try:
            body = json.loads(text)
        except ValueError:
            body = {}
        body = body if isinstance(body, dict) else {}
        errors = [e for e in body.get("errors") or [] if isinstance(e, dict)] if isinstance(body.get("errors"), list) else []
        rejected = body["rejected"] if isinstance(body.get("rejected"), int) else len(errors)
        accepted = body["accepted"] if isinstance(body.get("accepted"), int) else items - rejected
        return Accepted(accepted, rejected, errors)
    if status == 429 or status >= 500:
        return Retry(_server_reason(status, text), status, parse_retry_after(retry_after))
    if status == 413:
        return TooLarge(_server_reason(status, text))
    return Refused(status, _server_reason(status, text))


class Transport:
    def __init__(self, endpoint: str, project_key: str, timeout: float, gzip_min_bytes: int) -> None:
        parts = urlsplit(endpoint)
        self._secure = parts.scheme == "https"
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port
        self._path = parts.path or "/"
        self._timeout = timeout
        self._gzip_min_bytes = gzip_min_bytes
        self._headers = {
            "Content-Type": "application/json",
            "X-Service-Project-Key": project_key,
            "User-Agent": f"vigil-llm-python/{__version__}",
        }
        self._conn: Optional[http.client.HTTPConnection] = None

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            if self._secure:
                self._conn = http.client.HTTPSConnection(self._host, self._port, timeout=self._timeout, context=ssl.create_default_context())
            else:
                self._conn = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
        return self._conn

    def post(self, batch: Sequence[EncodedItem]) -> Outcome:
        body = b'{"traces":[' + b",".join(i.json for i in batch) + b"]}"
        headers = dict(self._headers)
        if self._gzip_min_bytes and len(body) >= self._gzip_min_bytes:
            body = gzip.compress(body, compresslevel=6)
            headers["Content-Encoding"] = "gzip"
        try:
            conn = self._connection()
            conn.request("POST", self._path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read(MAX_ANSWER_BYTES).decode("utf-8", "replace")
            if response.will_close or response.length:
                # Unread answer bytes or a server closing the connection: this connection cannot carry another batch.
                self.close()
            return classify(response.status, response.getheader("Retry-After"), text, len(batch))
        except (OSError, http.client.HTTPException, socket.timeout) as err:
            self.close()
            kind = "no answer within the timeout" if isinstance(err, socket.timeout) else f"{type(err).__name__}: {err}"
            return Retry(kind)

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                # shutdown first: from another thread (the client closing), close() alone leaves a blocked read waiting.
                if conn.sock is not None:
                    conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                conn.close()
            except Exception:  # noqa: BLE001 — closing a broken socket may fail; it is gone either way
                pass
