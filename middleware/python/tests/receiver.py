"""A stand-in for the agent's ingest route on loopback: it stores what it is sent, and answers as told."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple


class Receiver:
    def __init__(self) -> None:
        self.records: List[Dict[str, Any]] = []
        self.texts: List[str] = []
        self.posts: List[Tuple[str, Optional[str]]] = []
        # Status codes to answer, in turn; then 202.
        self.script: List[int] = []
        self.delay = 0.0
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get('content-length', '0')))
                if receiver.delay:
                    time.sleep(receiver.delay)
                with receiver._lock:
                    receiver.posts.append((self.path, self.headers.get('authorization')))
                    status = receiver.script.pop(0) if receiver.script else 202
                    if status == 202:
                        doc = json.loads(body)
                        receiver.records.extend(doc['records'])
                        receiver.texts.extend(_record_texts(body.decode('utf-8')))
                self.send_response(status)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', '2')
                self.end_headers()
                self.wfile.write(b'{}')

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.server.daemon_threads = True
        self.url = 'http://127.0.0.1:%d' % self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, count: int, timeout: float = 15.0) -> List[Dict[str, Any]]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if len(self.records) >= count:
                    return list(self.records)
            time.sleep(0.01)
        raise AssertionError('%d record(s) expected, %d received' % (count, len(self.records)))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _record_texts(body: str) -> List[str]:
    """Each record's own text in a `{"records":[…]}` body, as the middleware wrote it."""
    decoder = json.JSONDecoder()
    prefix = '{"records":['
    assert body.startswith(prefix), body[:50]
    at = len(prefix)
    out = []
    while body[at] != ']':
        _, end = decoder.raw_decode(body, at)
        out.append(body[at:end])
        at = end + 1 if body[end] == ',' else end
    return out


def normalize(text: str) -> str:
    """The corpus's normalization: `id`, `time` and `duration_ms` as "", 0 and 0, the rest byte for byte."""
    from vigil_fastapi.engine.js_json import stringify as s
    r = json.loads(text)
    tail = '"method":%s,"path":%s,"route":%s,"query":%s,"status":%s,' % (
        s(r['method']), s(r['path']), s(r['route']), s(r['query']), s(r['status']))
    prefix_start = '{"id":%s,"time":%s,%s"duration_ms":' % (s(r['id']), s(r['time']), tail)
    assert text.startswith(prefix_start), text[:200]
    rest = text[len(prefix_start):]
    comma = rest.index(',"headers":')
    return '{"id":"","time":0,%s"duration_ms":0%s' % (tail, rest[comma:])


Check = Callable[[Dict[str, Any]], None]
