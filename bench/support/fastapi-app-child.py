"""A FastAPI app under uvicorn in a process of its own, with VigilMiddleware on or off, driven over stdin/stdout by
bench/fastapi-middleware.ts: `cpu` answers the process's CPU (all threads, getrusage) and the middleware's governing
time; `flush` governs and ships what was captured; `stop` closes and exits. Prints `port N` once it listens.
Usage: fastapi-app-child.py on|off CONFIG AGENT_URL
"""
from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), 'middleware', 'python', 'src'))

import uvicorn  # noqa: E402
from fastapi import FastAPI, Request  # noqa: E402
from fastapi.responses import JSONResponse  # noqa: E402

from vigil_fastapi import VigilMiddleware  # noqa: E402

mode, config_path, agent_url = sys.argv[1:4]
app = FastAPI()
if mode == 'on':
    app.add_middleware(VigilMiddleware, config_path=config_path, agent_url=agent_url, token='bench-ingest-token-0123456789')


@app.api_route('/{path:path}', methods=['GET', 'POST'])
async def answer(path: str, request: Request) -> JSONResponse:
    body = await request.body()
    echo = json.loads(body) if body else None
    return JSONResponse({'ok': True, 'id': 1234, 'path': '/' + path, 'echo': echo, 'password': 'server-side'})


def middleware() -> VigilMiddleware | None:
    node = app.middleware_stack
    while node is not None and not isinstance(node, VigilMiddleware):
        node = getattr(node, 'app', None)
    return node


config = uvicorn.Config(app, host='127.0.0.1', port=0, log_level='warning', access_log=False, lifespan='on')
server = uvicorn.Server(config)
thread = threading.Thread(target=server.run, daemon=True)
thread.start()
while not server.started:
    time.sleep(0.01)
print('port %d' % server.servers[0].sockets[0].getsockname()[1], flush=True)



def restricted_call_us() -> float:
    """CPU of the middleware's own call on a restricted route (decision cached), around an app that does nothing."""
    import asyncio

    async def nothing(scope: dict, receive: object, send: object) -> None:
        pass

    m = VigilMiddleware(nothing, config_path=config_path, agent_url=agent_url, token='bench-ingest-token-0123456789')
    scope = {'type': 'http', 'method': 'GET', 'raw_path': b'/admin/users/17', 'path': '/admin/users/17', 'query_string': b'',
             'headers': [(b'host', b'127.0.0.1')]}

    async def rounds() -> float:
        n = 20_000
        started = time.thread_time()
        for _ in range(n):
            await m(scope, None, None)  # type: ignore[arg-type]
        with_it = time.thread_time() - started
        started = time.thread_time()
        for _ in range(n):
            await nothing(scope, None, None)
        return (with_it - (time.thread_time() - started)) / n * 1e6

    try:
        return asyncio.run(rounds())
    finally:
        m.close(0.1)


for line in sys.stdin:
    command = line.strip()
    m = middleware()
    if command == 'cpu':
        r = resource.getrusage(resource.RUSAGE_SELF)
        print(json.dumps({'cpu_us': (r.ru_utime + r.ru_stime) * 1e6, 'govern_ms': m.stats()['govern_ms'] if m else 0}), flush=True)
    elif command == 'flush':
        if m:
            m.flush(30)
        print(json.dumps({'flushed': True}), flush=True)
    elif command == 'restricted':
        print(json.dumps({'us': restricted_call_us()}), flush=True)
    elif command == 'stop':
        break
server.should_exit = True
thread.join(30)
