"""Validates and compiles a policy's rules; decides requests (policies/compile.ts)."""
from __future__ import annotations

import re
import threading
from typing import Any, Dict, List, Optional, Sequence

from .compile_glob import compile_glob
from .compile_json_path import CompiledJsonPath, compile_json_path
from .decision_cache import DecisionCache
from .errors import PolicyError
from .fold_path import path_readings, received_path
from .merge import CompiledRule, RouteDecision, merge_rules
from .js_json import js_string
from .validate_rules import validate_rules

TRAFFIC_DIMENSIONS = ('route', 'method', 'status_class')
DEFAULT_CACHE_SIZE = 10_000
MAX_MEMOISED_SETS = 4_096
_HEADER_SOURCE = re.compile(r'header:(.+)\Z')


class CompiledPolicy:
    def __init__(self, rules: Sequence[Dict[str, Any]], cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        validate_rules(rules)
        _check_unique_names(rules)
        self.rules = tuple(rules)
        self._compiled = [_compile_rule(r, i) for i, r in enumerate(rules)]
        self._memo: Dict[str, RouteDecision] = {}
        self._by_received: DecisionCache[RouteDecision] = DecisionCache(cache_size)
        self._by_folded: DecisionCache[RouteDecision] = DecisionCache(cache_size)
        # The app's threads (sync endpoints run in a pool) and the event loop may decide at once.
        self._lock = threading.Lock()

    @property
    def cached_routes(self) -> int:
        return self._by_received.size

    def decision_for(self, indexes: Sequence[int]) -> RouteDecision:
        key = ','.join(map(str, indexes))
        d = self._memo.get(key)
        if d is not None:
            return d
        for i in indexes:
            if not isinstance(i, int) or i < 0 or i >= len(self._compiled):
                raise IndexError('decision_for: rule index %r is not in this policy (it has %d rules)' % (i, len(self._compiled)))
        d = merge_rules(self._compiled, indexes)
        if len(self._memo) < MAX_MEMOISED_SETS:
            self._memo[key] = d
        return d

    def _resolve(self, method: str, readings: Optional[List[str]]) -> RouteDecision:
        upper = method.upper()
        indexes: List[int] = []
        for i, r in enumerate(self._compiled):
            if r.methods is not None and upper not in r.methods:
                continue
            if readings is None or any(r.matcher.test(p) for p in readings):
                indexes.append(i)
        return self.decision_for(indexes)

    def decide(self, method: str, target: str) -> RouteDecision:
        path = received_path(target)
        hit = self._by_received.get(method, path)
        if hit is not None:
            return hit
        with self._lock:
            hit = self._by_received.get(method, path)
            if hit is not None:
                return hit
            readings = path_readings(path)
            key = '' if readings is None else readings[0] if len(readings) == 1 else '\n'.join(readings)
            decision = self._by_folded.get(method, key)
            if decision is None:
                decision = self._resolve(method, readings)
                self._by_folded.set(method, key, decision)
            self._by_received.set(method, path, decision)
            return decision


def _check_unique_names(rules: Sequence[Dict[str, Any]]) -> None:
    seen: Dict[str, int] = {}
    for i, rule in enumerate(rules):
        first = seen.get(rule['name'])
        if first is not None:
            raise PolicyError('DUPLICATE_RULE', ('rules', i, 'name'),
                              'rule name "%s" is already used by rules[%d]; rule names must be unique (they identify rules in '
                              'matched_rules), so rename rules[%d] or rules[%d]' % (rule['name'], first, first, i))
        seen[rule['name']] = i


def _compile_rule(config: Dict[str, Any], i: int) -> CompiledRule:
    at = ('rules', i)
    redact = config.get('redact') or {}
    json_fields = tuple(compile_json_path(e, at + ('redact', 'json_fields', j)) for j, e in enumerate(redact.get('json_fields') or ()))
    meter = config.get('meter') or {}
    meter_tokens: Optional[CompiledJsonPath] = None
    if meter.get('tokens') is not None:
        meter_tokens = compile_json_path(meter['tokens'], at + ('meter', 'tokens'))
    labels = []
    for name, source in (config.get('labels') or {}).items():
        m = _HEADER_SOURCE.match(source)
        if not m:
            raise PolicyError('LABEL', at + ('labels', name), 'source %s is not supported; write "header:<Header-Name>"' % js_string(source))
        if name in TRAFFIC_DIMENSIONS:
            raise PolicyError('LABEL', at + ('labels', name),
                              '"%s" is a built-in dimension of the traffic metrics (%s); give the label another name, e.g. "%s_label"'
                              % (name, ', '.join(TRAFFIC_DIMENSIONS), name))
        labels.append((name, _js_trim(m.group(1)).lower()))
    methods = config['match'].get('methods')
    return CompiledRule(
        config=config,
        matcher=compile_glob(config['match']['path'], at + ('match', 'path')),
        methods=None if methods is None else frozenset(m.upper() for m in methods),
        json_fields=json_fields,
        meter_tokens=meter_tokens,
        labels=tuple(labels),
    )


def _js_trim(s: str) -> str:
    return s.strip(' \t\n\r\x0b\x0c\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a'
                   '\u2028\u2029\u202f\u205f\u3000\ufeff')
