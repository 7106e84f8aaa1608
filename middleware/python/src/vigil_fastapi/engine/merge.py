"""What the policy says about one request: the merge of every rule that matches it (policies/merge.ts)."""
from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Tuple

from .compile_json_path import CompiledJsonPath


class CompiledRule(NamedTuple):
    config: Dict[str, Any]
    matcher: Any
    methods: Optional[FrozenSet[str]]
    json_fields: Tuple[CompiledJsonPath, ...]
    meter_tokens: Optional[CompiledJsonPath]
    labels: Tuple[Tuple[str, str], ...]


class RouteDecision(NamedTuple):
    """Shared and cached: never mutate."""
    rule_indexes: Tuple[int, ...]
    matched_rules: Tuple[str, ...]
    routes: Tuple[str, ...]
    capture_request_body: bool
    capture_response_body: bool
    capture_headers: bool
    redact_headers: FrozenSet[str]
    redact_query: FrozenSet[str]
    json_fields: Tuple[CompiledJsonPath, ...]
    detect: Tuple[str, ...]
    # (label name, lower-case header name), one per label name.
    labels: Tuple[Tuple[str, str], ...]
    sample: float
    keep_errors: bool
    meter_tokens: Optional[CompiledJsonPath]

    @property
    def captures_anything(self) -> bool:
        return self.capture_request_body or self.capture_response_body or self.capture_headers


def merge_rules(rules: Sequence[CompiledRule], indexes: Sequence[int]) -> RouteDecision:
    capture_request_body = True
    capture_response_body = True
    capture_headers = True
    redact_headers: set = set()
    redact_query: set = set()
    json_fields: Dict[str, CompiledJsonPath] = {}
    detect: Dict[str, None] = {}
    labels: Dict[str, str] = {}
    sample: float = 1
    keep_errors = False
    meter_tokens: Optional[CompiledJsonPath] = None
    routes: List[str] = []
    for index in indexes:
        rule = rules[index]
        c = rule.config
        for part in c.get('restrict') or ():
            if part == 'request_body':
                capture_request_body = False
            elif part == 'response_body':
                capture_response_body = False
            elif part == 'headers':
                capture_headers = False
        redact = c.get('redact') or {}
        for h in redact.get('headers') or ():
            redact_headers.add(h.lower())
        for q in redact.get('query_params') or ():
            redact_query.add(q.lower())
        for p in rule.json_fields:
            if p.expression not in json_fields:
                json_fields[p.expression] = p
        for kind in redact.get('detect') or ():
            detect[kind] = None
        for name, header in rule.labels:
            labels.pop(name, None)
            labels[name] = header
        if 'sample' in c:
            sample = c['sample']
        if c.get('keep_errors') is True:
            keep_errors = True
        if rule.meter_tokens is not None:
            meter_tokens = rule.meter_tokens
        glob = c['match']['path']
        if glob in routes:
            routes.remove(glob)
        routes.append(glob)
    return RouteDecision(
        rule_indexes=tuple(indexes),
        matched_rules=tuple(rules[i].config['name'] for i in indexes),
        routes=tuple(routes),
        capture_request_body=capture_request_body,
        capture_response_body=capture_response_body,
        capture_headers=capture_headers,
        redact_headers=frozenset(redact_headers),
        redact_query=frozenset(redact_query),
        json_fields=tuple(json_fields.values()),
        detect=tuple(detect),
        labels=tuple(labels.items()),
        sample=sample,
        keep_errors=keep_errors,
        meter_tokens=meter_tokens,
    )
