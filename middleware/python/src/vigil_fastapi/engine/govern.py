"""A raw exchange turned into the record that may be stored (gateway/govern/govern.ts, mask-detected.ts) and that
record's JSON text (gateway/records/governed-record.ts `recordJson`), byte for byte as the TypeScript engine writes it.
Nothing unredacted is returned: a failure keeps metadata only.
"""
from __future__ import annotations

import random as _random
import re
from typing import Any, Callable, Dict, List, Optional, Sequence

from . import js_json
from .compile_json_path import REDACTED
from .decode_body import DEFAULT_MAX_DECODED_BYTES, EMPTY, DecodedBody, decode_body
from .detectors import DETECTOR_KINDS, redact_text
from .header_record import Values, headers_to_record, query_to_record
from .merge import RouteDecision
from .raw_exchange import RawExchange

OVER_BUDGET = 'not copied: the capture lane held capture.queue_bytes of bodies already'

StorableRecord = Dict[str, Any]


def govern_for_storage(exchange: RawExchange, decision: RouteDecision, random: Callable[[], float] = _random.random,
                       max_decoded_bytes: int = DEFAULT_MAX_DECODED_BYTES) -> StorableRecord:
    try:
        record = _govern_or_throw(exchange, decision, random, max_decoded_bytes)
        return record if not decision.detect else mask_detected(record, decision.detect)
    except Exception as err:  # noqa: BLE001 - one bad exchange keeps its metadata, and never its content
        return _metadata_only(exchange, decision, err)


def _error_of(exchange: RawExchange) -> Optional[str]:
    return exchange.error if isinstance(exchange.error, str) else None


def _metadata_only(exchange: RawExchange, decision: RouteDecision, err: BaseException) -> StorableRecord:
    path = str(exchange.path)
    return {
        'id': str(exchange.id), 'time': exchange.time, 'method': str(exchange.method),
        'path': path if not decision.detect else redact_text(path, decision.detect),
        'route': list(decision.routes), 'query': {}, 'status': exchange.status, 'duration_ms': exchange.duration_ms,
        'headers': None, 'response_headers': None, 'request_body_json': 'null', 'response_body_json': 'null', 'labels': {},
        'matched_rules': list(decision.matched_rules), 'tokens': None, 'sampled': False, 'truncated': False, 'partial': False,
        'dropped_reason': 'governance failed (%s); only metadata was kept' % (err,), 'error': _error_of(exchange),
    }


def _govern_or_throw(exchange: RawExchange, decision: RouteDecision, random: Callable[[], float],
                     max_decoded_bytes: int) -> StorableRecord:
    status = exchange.status
    is_error = status == 0 or status >= 500
    rolled = True if decision.sample >= 1 else False if decision.sample <= 0 else random() < decision.sample
    keep_bodies = rolled or (decision.keep_errors and is_error)

    capture_request = decision.capture_request_body and exchange.request_body is not None
    capture_response = decision.capture_response_body and exchange.response_body is not None
    need_tokens = decision.meter_tokens is not None
    decode_wanted = keep_bodies or need_tokens
    json_required = len(decision.json_fields) > 0

    request_incomplete = capture_request and exchange.request_incomplete is True
    response_incomplete = capture_response and exchange.response_incomplete is True
    request_truncated = exchange.request_truncated or request_incomplete
    response_truncated = exchange.response_truncated or response_incomplete
    reasons: List[str] = []
    request_dropped = capture_request and exchange.request_body_dropped is True
    response_dropped = capture_response and exchange.response_body_dropped is True
    request: DecodedBody = EMPTY
    response: DecodedBody = EMPTY
    if capture_request and not request_dropped and decode_wanted:
        request = decode_body(exchange.request_body, exchange.request_headers, request_truncated, json_required=json_required,
                              max_decoded_bytes=max_decoded_bytes, redact=decision.json_fields, read=decision.meter_tokens,
                              incomplete=request_incomplete)
    if capture_response and not response_dropped and decode_wanted:
        response = decode_body(exchange.response_body, exchange.response_headers, response_truncated,
                               json_required=json_required, max_decoded_bytes=max_decoded_bytes, redact=decision.json_fields,
                               read=decision.meter_tokens, incomplete=response_incomplete)
    if keep_bodies and request.kind == 'dropped':
        reasons.append('request_body: ' + request.reason)
    if keep_bodies and request_dropped:
        reasons.append('request_body: ' + OVER_BUDGET)
    if keep_bodies and response.kind == 'dropped':
        reasons.append('response_body: ' + response.reason)
    if keep_bodies and response_dropped:
        reasons.append('response_body: ' + OVER_BUDGET)

    tokens: Optional[float] = None
    if response.kind == 'json':
        tokens = response.number
    if tokens is None and request.kind == 'json':
        tokens = request.number

    capture_headers = decision.capture_headers
    return {
        'id': exchange.id,
        'time': exchange.time,
        'method': exchange.method,
        'path': exchange.path,
        'route': list(decision.routes),
        'query': query_to_record(exchange.target, decision.redact_query),
        'status': status,
        'duration_ms': exchange.duration_ms,
        'headers': headers_to_record(exchange.request_headers, decision.redact_headers)
        if capture_headers and exchange.request_headers else None,
        'response_headers': headers_to_record(exchange.response_headers, decision.redact_headers)
        if capture_headers and exchange.response_headers else None,
        'request_body_json': _body_json(request) if keep_bodies else 'null',
        'response_body_json': _body_json(response) if keep_bodies else 'null',
        'labels': _govern_labels(exchange.labels or {}, decision),
        'matched_rules': list(decision.matched_rules),
        'tokens': tokens,
        'sampled': keep_bodies,
        'truncated': bool((capture_request and request_truncated) or (capture_response and response_truncated)),
        'partial': bool(request_incomplete or response_incomplete),
        'dropped_reason': None if not reasons else '; '.join(reasons),
        'error': _error_of(exchange),
    }


def _body_json(body: DecodedBody) -> str:
    if body.kind == 'json':
        return body.text
    return js_json.js_string(body.text) if body.kind == 'text' else 'null'


def _govern_labels(labels: Dict[str, str], decision: RouteDecision) -> Dict[str, str]:
    out = dict(labels)
    if decision.redact_headers:
        for name, header in decision.labels:
            if name in out and header in decision.redact_headers:
                out[name] = REDACTED
    return out


# ---- redact.detect ------------------------------------------------------------------------------------------

def _mask_values(values: Values, kinds: Sequence[str]) -> Values:
    return {k: [redact_text(x, kinds) for x in v] if isinstance(v, list) else redact_text(v, kinds) for k, v in values.items()}


def mask_strings(value: Any, kinds: Sequence[str]) -> Any:
    """Parsed JSON with every detected span of `kinds`, in any string or key, masked (policies/govern-json.ts)."""
    if isinstance(value, str):
        return value if value == REDACTED else redact_text(value, kinds)
    if isinstance(value, list):
        return [mask_strings(v, kinds) for v in value]
    if isinstance(value, dict):
        out: Dict[str, Any] = {}
        for k in js_json.js_keys(value):
            key = redact_text(k, kinds)
            n = 2
            while key != k and key in out:
                key = '%s#%d' % (redact_text(k, kinds), n)
                n += 1
            out[key] = mask_strings(value[k], kinds)
        return js_json.js_ordered(out)
    return value


def _mask_body_json(text: str, kinds: Sequence[str]) -> str:
    if text == 'null':
        return text
    value = js_json.parse(text)
    masked = mask_strings(value, kinds)
    before = js_json.stringify(value)
    after = js_json.stringify(masked)
    return text if before == after else after


def mask_detected(record: StorableRecord, kinds: Sequence[str]) -> StorableRecord:
    out = dict(record)
    out['path'] = redact_text(record['path'], kinds)
    out['query'] = _mask_values(record['query'], kinds)
    out['headers'] = record['headers'] and _mask_values(record['headers'], kinds)
    out['response_headers'] = record['response_headers'] and _mask_values(record['response_headers'], kinds)
    out['labels'] = _mask_values(record['labels'], kinds)
    out['request_body_json'] = _mask_body_json(record['request_body_json'], kinds)
    out['response_body_json'] = _mask_body_json(record['response_body_json'], kinds)
    return out


# ---- the stored text ----------------------------------------------------------------------------------------

_LINE_BREAKS = re.compile(r'[\r\n]')


def _one_line(text: str) -> str:
    return _LINE_BREAKS.sub(' ', text) if '\n' in text or '\r' in text else text


def record_json(r: StorableRecord) -> str:
    """The record's JSON, keys in the stored order, on one line (`recordJson`)."""
    s = js_json.stringify
    t = js_json.stringify_strings
    masked = r.get('agent_masked')
    return ''.join((
        '{"id":', s(r['id']), ',"time":', s(r['time']), ',"method":', s(r['method']), ',"path":', s(r['path']),
        ',"route":', t(r['route']), ',"query":', t(r['query']), ',"status":', s(r['status']),
        ',"duration_ms":', s(r['duration_ms']), ',"headers":', 'null' if r['headers'] is None else t(r['headers']),
        ',"response_headers":', 'null' if r['response_headers'] is None else t(r['response_headers']),
        ',"request_body":', _one_line(r['request_body_json']),
        ',"response_body":', _one_line(r['response_body_json']), ',"labels":', t(r['labels']),
        ',"matched_rules":', t(r['matched_rules']), ',"tokens":', s(r['tokens']), ',"sampled":', s(r['sampled']),
        ',"truncated":', s(r['truncated']), ',"partial":', s(r['partial']), ',"dropped_reason":', s(r['dropped_reason']),
        ',"error":', s(r['error']), (',"agent_masked":' + s(masked)) if masked else '', '}'))


__all__ = ['govern_for_storage', 'record_json', 'mask_detected', 'mask_strings', 'DETECTOR_KINDS']
