"""The corpus app (tests/fixtures/governance-corpus/README.md, "Running it through an app"): a FastAPI app with
VigilMiddleware, under uvicorn, that answers the Nth request it receives with the Nth response of the cases of its
config (status, headers in order, body bytes), after reading the request's body to its end.

Environment: CORPUS_FILE, CORPUS_CONFIG, VIGIL_CONFIG, VIGIL_AGENT_URL, VIGIL_INGEST_TOKEN, PORT. Prints
`listening <port>` once it accepts connections.
"""
from __future__ import annotations

import base64
import json
import os
import sys
import threading
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'src'))

import uvicorn  # noqa: E402
from fastapi import FastAPI  # noqa: E402

from vigil_fastapi import VigilMiddleware  # noqa: E402


def responses(corpus_file: str, config: str) -> List[Dict[str, Any]]:
    with open(corpus_file, 'r', encoding='utf-8') as f:
        corpus = json.load(f)
    return [c['response'] for c in corpus['cases'] if c['config'] == config]


def build_app(answers: List[Dict[str, Any]], **options: Any) -> FastAPI:
    app = FastAPI()
    app.add_middleware(VigilMiddleware, config_path=os.environ['VIGIL_CONFIG'], flush_interval_ms=20, **options)
    lock = threading.Lock()
    served = [0]

    async def answer(scope: Dict[str, Any], receive: Any, send: Any) -> None:
        if scope['type'] != 'http':
            return
        more = True
        while more:
            message = await receive()
            more = message.get('type') == 'http.request' and message.get('more_body', False)
        with lock:
            n = served[0]
            served[0] += 1
        if n >= len(answers):
            await send({'type': 'http.response.start', 'status': 599, 'headers': []})
            await send({'type': 'http.response.body', 'body': b'no case left'})
            return
        res = answers[n]
        body = base64.b64decode(res['body_base64']) if 'body_base64' in res else b''
        headers = [(k.encode('latin-1'), v.encode('latin-1')) for k, v in res['headers']]
        await send({'type': 'http.response.start', 'status': res['status'], 'headers': headers})
        await send({'type': 'http.response.body', 'body': b'' if scope['method'] == 'HEAD' else body})

    # Every request-target reaches it, even those no route could match (`*`, absolute form, backslashes).
    app.router.default = answer
    return app


def main() -> None:
    app = build_app(responses(os.environ['CORPUS_FILE'], os.environ['CORPUS_CONFIG']))
    config = uvicorn.Config(app, host='127.0.0.1', port=int(os.environ.get('PORT', '0')), log_level='warning',
                            server_header=False, date_header=False, lifespan='on')
    server = uvicorn.Server(config)
    original = server.startup

    async def startup(sockets: Any = None) -> None:
        await original(sockets)
        port = server.servers[0].sockets[0].getsockname()[1]
        print('listening %d' % port, flush=True)

    server.startup = startup  # type: ignore[method-assign]
    server.run()


if __name__ == '__main__':
    main()
