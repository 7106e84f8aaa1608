// The Python client: one module of dataclasses (with from_dict/to_dict that map the wire names) and a client class
// with one method per operation, over urllib.request and json. Python 3.8+, no packages.
import type { ApiModel, ObjectModel, OperationModel, TypeRef } from './model.js';
import { NameScope, commentText, snakeCase, words } from './names.js';
import type { GeneratedFile, SdkNames } from './generate.js';

export const PY_KEYWORDS = [
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif',
  'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or',
  'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
];
/** Type names the module must not shadow (keywords that look like type names, and the typing names it imports). */
export const PY_RESERVED_TYPES = ['False', 'None', 'True', 'Any', 'Dict', 'List', 'Literal', 'Optional', 'Union', 'Exception'];

const fixer = (digitPrefix: string) => (name: string) => {
  const base = name || 'value';
  const start = /^[0-9]/.test(base) ? `${digitPrefix}${base}` : base;
  return PY_KEYWORDS.includes(start) ? `${start}_` : start;
};

const literal = (text: string) => JSON.stringify(text); // a JSON string is a valid Python string literal

export function pyType(t: TypeRef): string {
  let s: string;
  switch (t.kind) {
    case 'string': s = 'str'; break;
    case 'integer': s = 'int'; break;
    case 'number': s = 'float'; break;
    case 'boolean': s = 'bool'; break;
    case 'unknown': return 'Any';
    case 'null': return 'None';
    case 'enum': s = `Literal[${t.values.map((v) => (typeof v === 'boolean' ? (v ? 'True' : 'False') : JSON.stringify(v))).join(', ')}]`; break;
    case 'array': s = `List[${pyType(t.items)}]`; break;
    case 'map': s = `Dict[str, ${pyType(t.values)}]`; break;
    case 'named': s = t.name; break;
    case 'union': s = `Union[${t.variants.map(pyType).join(', ')}]`; break;
  }
  return t.nullable ? `Optional[${s}]` : s;
}

/** A callable that turns decoded JSON into the type (dataclasses from dicts), or null when JSON already is the type. */
function decoder(t: TypeRef): string | null {
  switch (t.kind) {
    case 'named': return `_obj(${t.name})`;
    case 'array': { const inner = decoder(t.items); return inner ? `_list(${inner})` : null; }
    case 'map': { const inner = decoder(t.values); return inner ? `_dict(${inner})` : null; }
    case 'union': {
      // JSON tells the variants apart by kind only: an object goes to the first object-like variant's decoder, a list
      // to the first array variant's.
      const objects = t.variants.find((v) => v.kind === 'named' || v.kind === 'map');
      const lists = t.variants.find((v) => v.kind === 'array');
      const forObject = objects ? decoder(objects) : null;
      const forList = lists ? decoder(lists) : null;
      return forObject || forList ? `_by_kind(${forObject ?? 'None'}, ${forList ?? 'None'})` : null;
    }
    default: return null;
  }
}

function docstring(lines: (string | undefined)[], indent: string): string {
  const text = lines.filter((l): l is string => !!l).map(commentText).join('\n\n').replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');
  if (!text) return '';
  const body = text.split('\n').map((l, i) => (i === 0 || !l ? l : indent + l)).join('\n');
  return `${indent}"""${body}${text.includes('\n') ? `\n${indent}` : ''}"""\n`;
}

function dataclassOf(type: ObjectModel): string {
  const scope = new NameScope(['from_dict', 'to_dict'], fixer('field_'));
  const fields = type.fields.map((f) => ({ f, name: scope.claim(snakeCase(words(f.jsonName))) }));
  // Fields without a default come first, as dataclasses require.
  const ordered = [...fields.filter((x) => x.f.required), ...fields.filter((x) => !x.f.required)];
  const lines: string[] = [`@_dataclass\nclass ${type.name}:\n`];
  const doc = docstring([type.description, ...fields.filter((x) => x.name !== x.f.jsonName).map((x) => `${x.name}: the JSON property ${JSON.stringify(x.f.jsonName)}.`)], '    ');
  lines.push(doc);
  for (const { f, name } of ordered) {
    const notes = [f.description, f.redacted ? 'redacted by the gateway in captured traffic' : undefined].filter(Boolean);
    const comment = notes.length ? `  # ${commentText(notes.join('; ')).replace(/\n/g, ' ')}` : '';
    lines.push(f.required ? `    ${name}: ${pyType(f.type)}${comment}\n` : `    ${name}: ${pyType(f.type.nullable ? f.type : { ...f.type, nullable: true })} = None${comment}\n`);
  }
  lines.push('\n    @classmethod\n', `    def from_dict(cls, data: Dict[str, Any]) -> ${type.name}:\n`);
  if (fields.length === 0) lines.push('        return cls()\n');
  else {
    lines.push('        return cls(\n');
    for (const { f, name } of ordered) {
      const dec = decoder(f.type);
      const get = `data.get(${literal(f.jsonName)})`;
      lines.push(`            ${name}=${dec ? `${dec}(${get})` : get},\n`);
    }
    lines.push('        )\n');
  }
  lines.push('\n    def to_dict(self) -> Dict[str, Any]:\n', '        data: Dict[str, Any] = {}\n');
  for (const { f, name } of fields) {
    // An optional field left at None is omitted, not sent as null.
    if (f.required) lines.push(`        data[${literal(f.jsonName)}] = _encode(self.${name})\n`);
    else lines.push(`        if self.${name} is not None:\n            data[${literal(f.jsonName)}] = _encode(self.${name})\n`);
  }
  lines.push('        return data\n');
  return lines.join('');
}

function method(op: OperationModel, methods: NameScope): string {
  const name = methods.claim(snakeCase(op.nameWords));
  const scope = new NameScope(['self'], fixer('p_'));
  const params: string[] = ['self'];
  const pathArgs = new Map<string, string>();
  for (const p of op.pathParams) {
    const arg = scope.claim(snakeCase(words(p.name)));
    pathArgs.set(p.name, arg);
    params.push(`${arg}: ${p.type.kind === 'integer' ? 'Union[str, int]' : p.type.kind === 'number' ? 'Union[str, float]' : pyType(p.type)}`);
  }
  const bodyArg = op.body ? scope.claim('body') : undefined;
  if (op.body) params.push(op.body.required ? `${bodyArg}: ${pyType(op.body.type)}` : `${bodyArg}: Optional[${pyType(op.body.type)}] = None`);
  const queryArgs = op.queryParams.map((q) => ({ q, arg: scope.claim(snakeCase(words(q.name))) }));
  if (queryArgs.length) {
    params.push('*');
    for (const { q, arg } of queryArgs) {
      params.push(q.required ? `${arg}: ${pyType(q.type)}` : `${arg}: ${pyType(q.type.nullable ? q.type : { ...q.type, nullable: true })} = None`);
    }
  }
  const path = op.path.split(/(\{[^}]+\})/).filter(Boolean)
    .map((part) => { const m = /^\{(.+)\}$/.exec(part); return m ? `_path(${pathArgs.get(m[1])})` : literal(part); }).join(' + ');
  const query = queryArgs.length ? `[${queryArgs.map(({ q, arg }) => `(${literal(q.name)}, ${arg})`).join(', ')}]` : 'None';
  const call = `self._send(${literal(op.method)}, ${path}, ${query}, ${bodyArg ?? 'None'}, ${literal(op.body?.contentType ?? 'application/json')}, ${literal(op.result.kind)})`;
  const returns = op.result.kind === 'json' ? pyType(op.result.type) : op.result.kind === 'text' ? 'str' : 'None';
  const dec = op.result.kind === 'json' ? decoder(op.result.type) : null;
  const doc = docstring([
    op.summary, `${op.method} ${op.path}`,
    op.errorStatuses.length ? `Raises ApiError for a non-2xx answer (documented: ${op.errorStatuses.join(', ')}).` : 'Raises ApiError for a non-2xx answer.',
    op.deprecated ? 'Deprecated.' : undefined,
  ], '        ');
  const body = op.result.kind === 'none' ? `        ${call}\n` : `        return ${dec ? `${dec}(${call})` : call}\n`;
  return `    def ${name}(${params.join(', ')}) -> ${returns}:\n${doc}${body}`;
}

export function emitPython(model: ApiModel, names: SdkNames): GeneratedFile[] {
  const queryTypes = new Set(model.operations.map((op) => op.queryType).filter(Boolean));
  // Instance attributes would hide a method of the same name.
  const methods = new NameScope(['base_url', 'headers', 'timeout'], fixer('op_'));
  const out: string[] = [];
  out.push(`# Generated by \`vigil sdk\` from ${literal(model.title)} ${model.version.replace(/\n/g, ' ')} (OpenAPI ${model.openapi}). Do not edit; regenerate.
# No dependencies: urllib.request and json from the standard library (Python 3.8+).
from __future__ import annotations

import json as _json
import urllib.error as _urlerror
import urllib.parse as _urlparse
import urllib.request as _urlrequest
from dataclasses import dataclass as _dataclass
from typing import Any, Dict, List, Literal, Optional, Union

__all__ = [${[...model.types.filter((t) => !queryTypes.has(t.name)).map((t) => t.name), 'ApiError', names.client].map(literal).join(', ')}]


def _obj(cls: Any) -> Any:
    return lambda value: None if value is None else cls.from_dict(value)


def _list(decode: Any) -> Any:
    return lambda value: None if value is None else [decode(item) for item in value]


def _dict(decode: Any) -> Any:
    return lambda value: None if value is None else {key: decode(item) for key, item in value.items()}


def _by_kind(for_object: Any, for_list: Any) -> Any:
    def decode(value: Any) -> Any:
        if isinstance(value, dict) and for_object is not None:
            return for_object(value)
        if isinstance(value, list) and for_list is not None:
            return for_list(value)
        return value
    return decode


def _encode(value: Any) -> Any:
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    return value


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)) or hasattr(value, "to_dict"):
        return _json.dumps(_encode(value))
    return str(value)


def _path(value: Any) -> str:
    return _urlparse.quote(_text(value), safe="")

`);
  for (const type of model.types) if (!queryTypes.has(type.name)) out.push('\n', dataclassOf(type), '\n');
  out.push(`
class ApiError(Exception):
    """A non-2xx answer: its status and its body (parsed JSON, or the text when it is not JSON)."""

    def __init__(self, method: str, url: str, status: int, body: Any, text: str) -> None:
        super().__init__(f"{method} {url} answered {status}")
        self.method = method
        self.url = url
        self.status = status
        self.body = body
        self.text = text


class ${names.client}:
${docstring([`A client of ${model.title} ${model.version}.${model.defaultServer ? ` Its first server: ${model.defaultServer}` : ''}`, 'headers are sent with every request (authentication, for example).'], '    ')}
    def __init__(self, base_url: str, headers: Optional[Dict[str, str]] = None, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = dict(headers or {})
        self.timeout = timeout

`);
  out.push(model.operations.map((op) => method(op, methods)).join('\n'));
  out.push(`
    def _send(self, method: str, path: str, query: Any, body: Any, content_type: str, result: str) -> Any:
        url = self.base_url + path
        pairs = []
        for key, value in query or []:
            # Lists repeat the key (OpenAPI's default form style); None is left out.
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if item is not None:
                    pairs.append((key, _text(item)))
        if pairs:
            url += "?" + _urlparse.urlencode(pairs)
        headers = {"accept": "application/json"}
        headers.update(self.headers)
        data = None
        if body is not None:
            data = _json.dumps(_encode(body)).encode("utf-8")
            headers["content-type"] = content_type
        request = _urlrequest.Request(url, data=data, headers=headers, method=method)
        try:
            with _urlrequest.urlopen(request, timeout=self.timeout) as response:
                text = response.read().decode("utf-8")
        except _urlerror.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            try:
                parsed = _json.loads(text) if text else None
            except ValueError:
                parsed = text
            raise ApiError(method, url, error.code, parsed, text) from None
        if result == "none":
            return None
        if result == "text":
            return text
        return _json.loads(text) if text else None
`);
  return [{ path: `${names.file}.py`, content: out.join('') }];
}
