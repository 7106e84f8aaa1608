"""A FastAPI app served by uvicorn in a thread of the test process, with or without VigilMiddleware, and raw HTTP
requests to it (the bytes on the wire, to compare responses byte for byte)."""
from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any, Optional

import uvicorn
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse

from . import support  # noqa: F401
from vigil_fastapi import VigilMiddleware


def make_app(middleware: Optional[dict] = None) -> FastAPI:
    app = FastAPI()
    if middleware is not None:
        app.add_middleware(VigilMiddleware, **middleware)

    @app.post('/api/users/{uid}')
    async def create_user(uid: str, request: Request) -> JSONResponse:
        body = await request.json()
        return JSONResponse({'id': uid, 'echo': body, 'password': 'hunter2'}, headers={'X-Trace': 'a', 'Set-Cookie': 's=1'})

    @app.get('/api/users/{uid}')
    def get_user(uid: str) -> dict:  # a sync endpoint: runs in the thread pool
        return {'id': uid, 'email': 'ada@example.com'}

    @app.get('/api/stream')
    async def stream() -> StreamingResponse:
        async def chunks() -> Any:
            for i in range(5):
                yield ('{"part":%d}\n' % i).encode()
                await asyncio.sleep(0)
        return StreamingResponse(chunks(), media_type='application/x-ndjson')

    @app.post('/admin/upload')
    async def upload(request: Request) -> PlainTextResponse:
        data = await request.body()
        return PlainTextResponse('got %d bytes' % len(data))

    @app.get('/api/boom')
    def boom() -> dict:
        raise RuntimeError('the handler failed')

    @app.get('/api/slow-stream')
    async def slow_stream() -> StreamingResponse:
        async def chunks() -> Any:
            for i in range(100):
                yield b'{"tick":%d}\n' % i
                await asyncio.sleep(0.05)
        return StreamingResponse(chunks(), media_type='text/plain')

    @app.get('/api/empty', status_code=204)
    def empty() -> Response:
        return Response(status_code=204)

    return app


class Served:
    """`app` under uvicorn on a free loopback port, in a thread; `stop()` runs its lifespan shutdown."""

    def __init__(self, app: Any) -> None:
        self.app = app
        sock = socket.socket()
        sock.bind(('127.0.0.1', 0))
        self.port = sock.getsockname()[1]
        sock.close()
        # 'critical': the tests' own failing handler would print its traceback otherwise.
        config = uvicorn.Config(app, host='127.0.0.1', port=self.port, log_level='critical', lifespan='on',
                                server_header=False, date_header=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > end or not self.thread.is_alive():
                raise RuntimeError('uvicorn did not start')
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


def raw_request(port: int, request: bytes, timeout: float = 30.0) -> bytes:
    """Sends `request` as written on a connection of its own; the whole response as received (Connection: close)."""
    with socket.create_connection(('127.0.0.1', port), timeout=timeout) as s:
        s.sendall(request)
        out = b''
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return out
            out += chunk


def http(method: str, path: str, body: bytes = b'', headers: Optional[list] = None) -> bytes:
    lines = ['%s %s HTTP/1.1' % (method, path), 'Host: app.test', 'Connection: close']
    for name, value in headers or []:
        lines.append('%s: %s' % (name, value))
    if body or method in ('POST', 'PUT'):
        lines.append('Content-Length: %d' % len(body))
    return ('\r\n'.join(lines) + '\r\n\r\n').encode('latin-1') + body
