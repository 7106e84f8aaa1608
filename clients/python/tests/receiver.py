"""A real HTTP server speaking ``POST /v1/traces`` for the unit tests, in a thread of the test process: it records
every batch (headers, gzip, items) and answers 202 with each item checked on its own (a model is required), or the
statuses queued in ``script``."""

from __future__ import annotations

import gzip
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional


class Receiver:
    def __init__(self, key: str = "vk_test") -> None:
        self.key = key
        self.batches: List[Dict[str, Any]] = []
        #: Statuses for the next requests, first first; then the normal answer.
        self.script: List[int] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 — http.server's naming
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                gz = self.headers.get("Content-Encoding") == "gzip"
                body = json.loads(gzip.decompress(raw) if gz else raw)
                with receiver.lock:
                    receiver.batches.append({"headers": dict(self.headers), "gzip": gz, "items": body["traces"], "path": self.path})
                    status = receiver.script.pop(0) if receiver.script else None
                if self.headers.get("X-Service-Project-Key") != receiver.key:
                    status = 401
                if status is not None:
                    return self._reply(status, {"error": {"code": f"SCRIPTED_{status}", "message": "scripted"}})
                errors, ids = [], []
                for index, item in enumerate(body["traces"]):
                    if not isinstance(item.get("model"), str) or not item["model"]:
                        errors.append({"index": index, "code": "VIGIL_ERR_LLM_ITEM_INVALID", "message": "model is required", "path": "model"})
                    else:
                        ids.append(item["id"])
                self._reply(202, {"accepted": len(ids), "rejected": len(errors), "sampled_out": 0, "errors": errors, "ids": ids})

            def _reply(self, status: int, body: Dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def items(self) -> List[Dict[str, Any]]:
        with self.lock:
            return [item for batch in self.batches for item in batch["items"]]

    def item(self, item_id: str) -> Optional[Dict[str, Any]]:
        return next((i for i in self.items() if i.get("id") == item_id), None)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
