"""Reads a vigil config file as `vigil run` does, for the two sections the middleware uses (middleware/core/load-policy.ts):
``${ENV}`` interpolation in values, YAML 1.2 scalars, duplicate keys refused, `rules` checked strictly (schema, globs,
JSON paths, labels) and `capture.max_body_bytes`. Every problem names file:line:column and the key path.
"""
from __future__ import annotations

import math
import os
import re
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Tuple, Union

import yaml

from .engine.compile_policy import CompiledPolicy
from .engine.errors import PolicyError
from .engine.errors import format_key_path
from .engine.validate_rules import check_rules
from .errors import VigilConfigError

DEFAULT_MAX_BODY_BYTES = 1024 * 1024

Path = Tuple[Union[str, int], ...]

_REFERENCE = re.compile(r'\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{')
_WHOLE_REFERENCE = re.compile(r'\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}\Z')
_BYTE_SIZE = re.compile(r'(\d+(?:\.\d+)?|\.\d+)\s*(?:([kmgt])(?:i?b)?|(b))?\Z', re.I | re.ASCII)
_BYTE_UNITS = {'': 1, 'b': 1, 'k': 1024, 'm': 1024 ** 2, 'g': 1024 ** 3, 't': 1024 ** 4}
_INT = re.compile(r'[-+]?[0-9]+\Z')
_OCT = re.compile(r'0o[0-7]+\Z')
_HEX = re.compile(r'0x[0-9a-fA-F]+\Z')
_FLOAT = re.compile(r'[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z')


class LoadedConfig(NamedTuple):
    file: str
    policy: CompiledPolicy
    max_body_bytes: int


class _Problem(Exception):
    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path


def plain_scalar(text: str) -> Any:
    """A plain scalar as YAML 1.2's core schema reads it (as `vigil run`'s loader does): `yes` stays a string."""
    if text in ('', '~', 'null', 'Null', 'NULL'):
        return None
    if text in ('true', 'True', 'TRUE'):
        return True
    if text in ('false', 'False', 'FALSE'):
        return False
    if _INT.match(text):
        return int(text)
    if _OCT.match(text):
        return int(text[2:], 8)
    if _HEX.match(text):
        return int(text[2:], 16)
    if _FLOAT.match(text) and any(c.isdigit() for c in text):
        return float(text)
    if text in ('.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'):
        return math.inf
    if text in ('-.inf', '-.Inf', '-.INF'):
        return -math.inf
    if text in ('.nan', '.NaN', '.NAN'):
        return math.nan
    return text


def interpolate(source: str, env: Mapping[str, str]) -> Tuple[str, List[str], bool]:
    """``${VAR}`` and ``${VAR:-default}`` expanded; ``$${`` is a literal ``${``. (text, missing names, malformed)."""
    missing: List[str] = []
    malformed = False

    def one(m: 're.Match[str]') -> str:
        nonlocal malformed
        whole = m.group(0)
        if whole == '$${':
            return '${'
        name = m.group(1)
        if name is None:
            malformed = True
            return whole
        value = env.get(name)
        fallback = m.group(2)
        if fallback is not None:
            return fallback if value is None or value == '' else value
        if value is None:
            if name not in missing:
                missing.append(name)
            return ''
        return value

    text = _REFERENCE.sub(one, source)
    return text, missing, malformed


class _Reader:
    """Builds the document's value from YAML nodes, keeping each key path's place."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env
        # Where each key path's value starts, and where its key is written (a list item: where the item starts).
        self.places: Dict[Path, Tuple[int, int]] = {}
        self.keys: Dict[Path, Tuple[int, int]] = {}
        self.problems: List[Tuple[Path, str]] = []
        self.anchors: Dict[int, Any] = {}

    def value(self, node: yaml.Node, path: Path) -> Any:
        self.places.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if id(node) in self.anchors:
            return self.anchors[id(node)]
        if isinstance(node, yaml.MappingNode):
            out: Dict[str, Any] = {}
            self.anchors[id(node)] = out
            first: Dict[str, int] = {}
            for key_node, value_node in node.value:
                if key_node.tag == 'tag:yaml.org,2002:merge':
                    merged = self.value(value_node, path)
                    for source in merged if isinstance(merged, list) else [merged]:
                        if isinstance(source, dict):
                            for k, v in source.items():
                                out.setdefault(k, v)
                    continue
                key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else str(self.value(key_node, path))
                if key in first:
                    self.keys.setdefault(path + (key, '#duplicate'), (key_node.start_mark.line + 1, key_node.start_mark.column + 1))
                    self.problems.append((path + (key, '#duplicate'), 'duplicate key %s (first set on line %d); keep one of them'
                                          % (format_key_path(path + (key,)), first[key])))
                    continue
                first[key] = key_node.start_mark.line + 1
                self.keys[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                out[key] = self.value(value_node, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            items: List[Any] = []
            self.anchors[id(node)] = items
            for i, item in enumerate(node.value):
                items.append(self.value(item, path + (i,)))
            return items
        assert isinstance(node, yaml.ScalarNode)
        text = node.value
        plain = node.style is None
        explicit = node.tag if node.tag not in ('tag:yaml.org,2002:str', 'tag:yaml.org,2002:int', 'tag:yaml.org,2002:float',
                                                 'tag:yaml.org,2002:bool', 'tag:yaml.org,2002:null', None) else None
        if '${' in text:
            expanded, missing, malformed = interpolate(text, self.env)
            where = format_key_path(path) or 'value'
            if malformed:
                self.problems.append((path, '%s has a malformed reference: write ${NAME} or ${NAME:-default} (NAME: letters, '
                                            'digits, _), or $${ for a literal ${' % where))
                return text
            for name in missing:
                self.problems.append((path, '%s uses environment variable %s, which is not set (set it, or give a default: '
                                            '${%s:-value})' % (where, name, name)))
            if missing:
                return ''
            if plain and explicit is None and _WHOLE_REFERENCE.match(text):
                return plain_scalar(expanded) if expanded.strip() != '' else expanded
            return expanded
        return plain_scalar(text) if plain and explicit is None else text


def parse_byte_size(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return int(math.floor(value)) if math.isfinite(value) and value >= 0 else None
    if not isinstance(value, str):
        return None
    m = _BYTE_SIZE.match(value.strip())
    if not m:
        return None
    unit = (m.group(2) or m.group(3) or '').lower()
    return int(math.floor(float(m.group(1)) * _BYTE_UNITS[unit]))


def load_config(config_path: str, env: Optional[Mapping[str, str]] = None) -> LoadedConfig:
    """Raises VigilConfigError naming file:line:column and the key path of the first problem (all are listed)."""
    env = os.environ if env is None else env
    file = os.path.abspath(config_path)
    try:
        with open(file, 'r', encoding='utf-8') as f:
            text = f.read()
    except OSError as err:
        raise VigilConfigError('%s: cannot read the config file (%s)' % (config_path, err.strerror or err)) from None
    except UnicodeDecodeError:
        raise VigilConfigError('%s: the config file is not UTF-8 text' % config_path) from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as err:
        mark = getattr(err, 'problem_mark', None)
        where = '%s:%d:%d' % (file, mark.line + 1, mark.column + 1) if mark is not None else file
        raise VigilConfigError('%s: invalid YAML: %s' % (where, getattr(err, 'problem', None) or err)) from None
    reader = _Reader(env)
    data = reader.value(node, ()) if node is not None else {}

    def located(path: Path, message: str) -> str:
        # Problems with a key itself point at the key (as `vigil validate` does); the others at the value.
        at_key = path[-1:] == ('#duplicate',) or ': unknown key' in message or ': invalid name' in message
        place = reader.keys.get(path) if at_key else reader.places.get(path)
        if path[-1:] == ('#duplicate',):
            path = path[:-1]
        while place is None and path:
            place = reader.places.get(path)
            path = path[:-1]
        where = '%s:%d:%d' % ((file,) + place) if place else file
        return '%s: %s' % (where, message)

    def fail(problems: List[Tuple[Path, str]]) -> VigilConfigError:
        return VigilConfigError('\n'.join(located(p, m) for p, m in problems))

    if reader.problems:
        raise fail(reader.problems)
    if not isinstance(data, dict):
        raise VigilConfigError('%s: the config file must be a mapping of sections (rules:, capture:, …)' % file)
    if 'rules' not in data:
        raise VigilConfigError('%s: no "rules" key; the middleware governs with the rules of a vigil config file' % file)
    schema = [(tuple(p), '%s: %s' % (format_key_path(p), m)) for p, m in check_rules(data['rules'])]
    if schema:
        raise fail(schema)
    rules = data['rules']
    for i, rule in enumerate(rules):
        if 'wasm' in rule:
            raise fail([(('rules', i, 'wasm'), 'rules[%d].wasm: WASM policy modules are not run by the Python middleware '
                                               '(vigil-fastapi); govern this route with a gateway or the Express middleware, or '
                                               'remove the key' % i)])
    try:
        policy = CompiledPolicy(rules)
    except PolicyError as err:
        raise fail([(err.path, '%s: %s' % (err.where, err.detail))]) from None
    capture = data.get('capture')
    max_body = DEFAULT_MAX_BODY_BYTES
    if capture is not None:
        if not isinstance(capture, dict):
            raise fail([(('capture',), 'capture: must be object')])
        if 'max_body_bytes' in capture:
            value = capture['max_body_bytes']
            parsed = parse_byte_size(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
            if parsed is None:
                raise fail([(('capture', 'max_body_bytes'), 'capture.max_body_bytes: invalid byte size %r: expected a number '
                                                            'of bytes or e.g. 512, 64kb, 1mb, 2gb' % (value,))])
            max_body = parsed
    return LoadedConfig(file, policy, max_body)
