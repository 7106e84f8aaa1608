"""Sends a corpus case's request as written (target, headers in order, body), each on a connection of its own."""
from __future__ import annotations

import base64
import http.client
from typing import Any, Dict, Tuple


def send_case(port: int, case: Dict[str, Any], timeout: float = 30.0) -> Tuple[int, bytes]:
    req = case['request']
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout)
    try:
        conn.putrequest(req['method'], req['target'], skip_host=True, skip_accept_encoding=True)
        for name, value in req['headers']:
            conn.putheader(name, value)
        body = base64.b64decode(req['body_base64']) if 'body_base64' in req else None
        chunked = any(n.lower() == 'transfer-encoding' and 'chunked' in v.lower() for n, v in req['headers'])
        if chunked:
            # As the runner frames it: the body as one chunk, then the last chunk.
            body = (b'%x\r\n%s\r\n' % (len(body), body) if body else b'') + b'0\r\n\r\n'
        conn.endheaders(body)
        res = conn.getresponse()
        return res.status, res.read()
    finally:
        conn.close()
