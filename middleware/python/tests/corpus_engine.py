"""A corpus case through the engine directly, on the path the middleware takes (the corpus generator's own path:
decide, bounded copies of the bodies, the raw exchange, governance, the record's text)."""
from __future__ import annotations

import base64
import json
import os
import tempfile
from typing import Any, Dict, List, Optional, Tuple

from . import support  # noqa: F401  (puts the package on the path)
from vigil_fastapi.engine.bounded_copy import BoundedCopy
from vigil_fastapi.engine.extract_labels import extract_labels
from vigil_fastapi.engine.govern import govern_for_storage, record_json
from vigil_fastapi.engine.header_record import without_hop_by_hop
from vigil_fastapi.engine.raw_exchange import raw_exchange
from vigil_fastapi.load_config import LoadedConfig, load_config


def load_corpus(path: str = support.CORPUS_FILE) -> Dict[str, Any]:
    with open(path, 'r', encoding='utf-8') as f:
        return json.load(f)


def load_configs(corpus: Dict[str, Any]) -> Dict[str, LoadedConfig]:
    out: Dict[str, LoadedConfig] = {}
    with tempfile.TemporaryDirectory(prefix='vigil-corpus-py-') as d:
        for name, text in corpus['configs'].items():
            file = os.path.join(d, 'vigil.yaml')
            with open(file, 'w', encoding='utf-8') as f:
                f.write(text)
            out[name] = load_config(file, {})
    return out


def _flat(pairs: List[List[str]]) -> List[str]:
    return [x for pair in pairs for x in pair]


def _body(part: Dict[str, Any]) -> bytes:
    return base64.b64decode(part['body_base64']) if 'body_base64' in part else b''


def _header(pairs: List[List[str]], lower: str) -> Optional[str]:
    for n, v in pairs:
        if n.lower() == lower:
            return v
    return None


def _copy(body: bytes, limit: int, declared: Optional[str]) -> Optional[BoundedCopy]:
    if not body:
        return None
    try:
        n = int(declared) if declared is not None else -1
    except ValueError:
        n = -1
    copy = BoundedCopy(limit, n if n >= 0 else -1)
    copy.push(body)
    return copy


def record_of(config: LoadedConfig, case: Dict[str, Any]) -> Optional[str]:
    """The normalized record the engine makes of `case`, or None when its route captures nothing."""
    req = case['request']
    res = case['response']
    decision = config.policy.decide(req['method'], req['target'])
    if not decision.captures_anything:
        return None
    request_headers = _flat(req['headers'])
    has_body = req['method'] != 'HEAD' and res['status'] not in (204, 304)
    exchange = raw_exchange(
        decision=decision, time_ms=0, method=req['method'], target=req['target'],
        labels=extract_labels(decision, request_headers), request_headers=request_headers,
        response_headers=without_hop_by_hop(_flat(res['headers'])) if decision.capture_headers else None,
        status=res['status'], duration_ms=0,
        request_copy=_copy(_body(req), config.max_body_bytes, _header(req['headers'], 'content-length')) if decision.capture_request_body else None,
        response_copy=_copy(_body(res), config.max_body_bytes, _header(res['headers'], 'content-length'))
        if decision.capture_response_body and has_body else None,
        request_ended=True, response_ended=True, error=None)
    exchange.id = ''
    return record_json(govern_for_storage(exchange, decision))


def mismatches(corpus: Dict[str, Any]) -> List[Tuple[str, Optional[str], Optional[str]]]:
    configs = load_configs(corpus)
    out = []
    for case in corpus['cases']:
        got = record_of(configs[case['config']], case)
        if got != case['record']:
            out.append((case['name'], case['record'], got))
    return out
