"""Reads generated inputs (JSON on stdin) and writes what the ported engine makes of each (JSON on stdout), for
tests/integration/middleware-fastapi-engine.test.ts to compare with the TypeScript engine's answers."""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'src'))

from vigil_fastapi.engine.compile_json_path import compile_json_path  # noqa: E402
from vigil_fastapi.engine.decode_escapes import decode_escapes  # noqa: E402
from vigil_fastapi.engine.detectors import redact_text  # noqa: E402
from vigil_fastapi.engine.fold_path import fold_path, path_readings  # noqa: E402
from vigil_fastapi.engine.govern import mask_strings  # noqa: E402
from vigil_fastapi.engine.header_record import query_to_record  # noqa: E402
from vigil_fastapi.engine.js_json import parse, stringify  # noqa: E402
from vigil_fastapi.engine.json_text import govern_json_text  # noqa: E402


def json_text(item: dict) -> object:
    r = govern_json_text(item['text'], [compile_json_path(p) for p in item['redact']],
                         compile_json_path(item['read']) if item['read'] else None)
    if not r.ok:
        return {'ok': False, 'reason': r.reason}
    return {'ok': True, 'text': r.text, 'redactions': r.redactions, 'number': None if r.number is None else stringify(r.number)}


def main() -> None:
    inputs = json.load(sys.stdin)
    out = {
        'readings': [path_readings(t) for t in inputs['readings']],
        'folds': [fold_path(t) for t in inputs['folds']],
        'decodes': [decode_escapes(t) for t in inputs['decodes']],
        'jsonText': [json_text(i) for i in inputs['jsonText']],
        'redactText': [redact_text(t) for t in inputs['redactText']],
        'maskStrings': [stringify(mask_strings(parse(t), ['email', 'card_number', 'api_key'])) for t in inputs['maskStrings']],
        'stringify': [stringify(parse(t)) for t in inputs['stringify']],
        'query': [stringify(query_to_record(t, frozenset(['token']))) for t in inputs['query']],
    }
    sys.stdout.write(json.dumps(out))


if __name__ == '__main__':
    main()
