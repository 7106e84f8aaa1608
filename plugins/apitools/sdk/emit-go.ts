// The Go client: one package of structs with json tags and a Client with one method per operation, over net/http
// and encoding/json. The output is gofmt-formatted (fields aligned as gofmt aligns them).
import type { ApiModel, FieldModel, ObjectModel, OperationModel, TypeRef } from './model.js';
import { NameScope, commentText, words } from './names.js';
import type { GeneratedFile, SdkNames } from './generate.js';

export const GO_KEYWORDS = [
  'break', 'case', 'chan', 'const', 'continue', 'default', 'defer', 'else', 'fallthrough', 'for', 'func', 'go', 'goto',
  'if', 'import', 'interface', 'map', 'package', 'range', 'return', 'select', 'struct', 'switch', 'type', 'var',
];
const PREDECLARED = [
  'any', 'bool', 'byte', 'comparable', 'complex64', 'complex128', 'error', 'float32', 'float64', 'int', 'int8', 'int16',
  'int32', 'int64', 'rune', 'string', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr', 'true', 'false', 'iota',
  'nil', 'append', 'cap', 'close', 'complex', 'copy', 'delete', 'imag', 'len', 'make', 'new', 'panic', 'print', 'println',
  'real', 'recover',
];
/** Names a method's body uses: its receiver, locals, the imported packages and the file's helpers. */
const METHOD_LOCALS = ['c', 'ctx', 'params', 'body', 'payload', 'out', 'err', 'query', 'url', 'fmt', 'json', 'http', 'strconv',
  'strings', 'bytes', 'io', 'context', 'formatValue'];

// golint's initialisms: `user_id` → UserID, `api_url` → APIURL.
const INITIALISMS = new Set(['acl', 'api', 'ascii', 'cpu', 'css', 'dns', 'eof', 'guid', 'html', 'http', 'https', 'id', 'ip',
  'json', 'lhs', 'qps', 'ram', 'rhs', 'rpc', 'sla', 'smtp', 'sql', 'ssh', 'tcp', 'tls', 'ttl', 'udp', 'ui', 'uid', 'uuid',
  'uri', 'url', 'utf8', 'vm', 'xml', 'xmpp', 'xsrf', 'xss']);

const goWord = (w: string) => (INITIALISMS.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1));
/** An exported Go name; one that would start with a digit gets an X in front (`2fa` → X2fa), as protoc-gen-go does. */
export function goExported(ws: string[], fallback: string): string {
  const name = ws.map(goWord).join('');
  if (!name) return fallback;
  return /^[0-9]/.test(name) ? `X${name}` : name;
}
function goLocal(ws: string[]): string {
  if (ws.length === 0) return 'value';
  const [first, ...rest] = ws;
  const name = first + rest.map(goWord).join('');
  return /^[0-9]/.test(name) ? `v${name}` : name;
}
const fixLocal = (name: string) => (GO_KEYWORDS.includes(name) || PREDECLARED.includes(name) || METHOD_LOCALS.includes(name) ? `${name}Value` : name);

/** The characters encoding/json accepts in a tag name (its isValidTag); other keys cannot be a struct field. */
const VALID_TAG = /^[\p{L}\p{N}!#$%&()*+\-./:;<=>?@[\]^_{|}~ ]+$/u;

/** A type as it appears inside a slice or map (named types by value). */
function goElem(t: TypeRef): string {
  switch (t.kind) {
    case 'string': return 'string';
    case 'integer': return 'int64';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    case 'enum': return goElem({ kind: t.base });
    case 'array': return `[]${goElem(t.items)}`;
    case 'map': return `map[string]${goElem(t.values)}`;
    case 'named': return t.nullable ? `*${t.name}` : t.name;
    default: return 'any'; // unknown, null, unions: any JSON value
  }
}

/** The type of a field, parameter or result: pointers where a value may be absent or null, and for named types. */
export function goType(t: TypeRef, required: boolean): string {
  switch (t.kind) {
    case 'named': return `*${t.name}`;
    case 'string': case 'integer': case 'number': case 'boolean': case 'enum':
      return !required || t.nullable ? `*${goElem(t)}` : goElem(t);
    default: return goElem({ ...t, nullable: false });
  }
}

function commentLines(lines: (string | undefined)[], indent: string): string {
  const text = lines.filter((l): l is string => !!l).map(commentText).join('\n\n');
  return text ? text.split('\n').map((l) => `${indent}//${l ? ` ${l}` : ''}\n`).join('') : '';
}

interface GoField { f: FieldModel; name: string; type: string; tag: string }

function goFields(type: ObjectModel): { fields: GoField[]; dropped: FieldModel[] } {
  const scope = new NameScope([], (n) => n);
  const fields: GoField[] = [];
  const dropped: FieldModel[] = [];
  for (const f of type.fields) {
    if (!VALID_TAG.test(f.jsonName)) { dropped.push(f); continue; }
    const name = scope.claim(goExported(words(f.jsonName), 'Field'));
    fields.push({ f, name, type: goType(f.type, f.required), tag: `\`json:"${f.jsonName}${f.required ? '' : ',omitempty'}"\`` });
  }
  return { fields, dropped };
}

/** A struct, with runs of consecutive field lines aligned in columns as gofmt's tabwriter aligns them. */
function structOf(type: ObjectModel): string {
  const { fields, dropped } = goFields(type);
  const out: string[] = [commentLines([`${type.name}${type.description ? `: ${type.description}` : ' is a JSON object of the API.'}`,
    dropped.length ? `Properties that cannot be a Go json tag are left out: ${dropped.map((f) => JSON.stringify(f.jsonName)).join(', ')}.` : undefined], '')];
  out.push(`type ${type.name} struct {\n`);
  let run: GoField[] = [];
  const flush = () => {
    const nameWidth = Math.max(...run.map((x) => x.name.length));
    const typeWidth = Math.max(...run.map((x) => x.type.length));
    for (const x of run) out.push(`\t${x.name.padEnd(nameWidth)} ${x.type.padEnd(typeWidth)} ${x.tag}\n`);
    run = [];
  };
  for (const x of fields) {
    const notes = [x.f.description, 'format' in x.f.type && x.f.type.format ? `Format: ${x.f.type.format}.` : undefined,
      x.f.type.kind === 'enum' ? `One of ${x.f.type.values.map((v) => JSON.stringify(v)).join(', ')}.` : undefined,
      x.f.redacted ? 'Redacted by the gateway in captured traffic.' : undefined];
    const comment = commentLines(notes, '\t');
    if (comment) { if (run.length) flush(); out.push(comment); }
    run.push(x);
  }
  if (run.length) flush();
  out.push('}\n');
  return out.join('');
}

function method(op: OperationModel, methods: NameScope, client: string, queryTypes: Map<string, ObjectModel>): string {
  const name = methods.claim(goExported(op.nameWords, 'Call'));
  const scope = new NameScope([], fixLocal);
  const params = ['ctx context.Context'];
  const pathArgs = new Map<string, string>();
  for (const p of op.pathParams) {
    const arg = scope.claim(goLocal(words(p.name)));
    pathArgs.set(p.name, arg);
    params.push(`${arg} ${goType({ ...p.type, nullable: false }, true).replace(/^\*/, '')}`);
  }
  const bodyType = op.body ? goType(op.body.type, op.body.required) : undefined;
  if (bodyType) params.push(`body ${bodyType}`);
  if (op.queryType) params.push(`params *${op.queryType}`);

  const returns = op.result.kind === 'json' ? goType(op.result.type, true) : op.result.kind === 'text' ? 'string' : undefined;
  const lines: string[] = [];
  let query = 'nil';
  if (op.queryType) {
    query = 'query';
    lines.push('\tquery := url.Values{}\n', '\tif params != nil {\n');
    const { fields } = goFields(queryTypes.get(op.queryType)!);
    for (const x of fields) {
      const key = JSON.stringify(x.f.jsonName);
      if (x.f.type.kind === 'array') lines.push(`\t\tfor _, v := range params.${x.name} {\n\t\t\tquery.Add(${key}, formatValue(v))\n\t\t}\n`);
      else if (x.type.startsWith('*')) lines.push(`\t\tif params.${x.name} != nil {\n\t\t\tquery.Add(${key}, formatValue(${x.f.type.kind === 'named' ? '' : '*'}params.${x.name}))\n\t\t}\n`);
      else if (/^(any|map|\[\])/.test(x.type)) lines.push(`\t\tif params.${x.name} != nil {\n\t\t\tquery.Add(${key}, formatValue(params.${x.name}))\n\t\t}\n`);
      else lines.push(`\t\tquery.Add(${key}, formatValue(params.${x.name}))\n`);
    }
    lines.push('\t}\n');
  }
  let payload = 'nil';
  if (op.body && bodyType) {
    payload = 'payload';
    // A nil pointer in an interface is not nil: an absent optional body must stay a nil interface.
    if (!op.body.required && /^(\*|any|map|\[\])/.test(bodyType)) lines.push('\tvar payload any\n\tif body != nil {\n\t\tpayload = body\n\t}\n');
    else payload = 'body';
  }
  const path = op.path.split(/(\{[^}]+\})/).filter(Boolean)
    .map((part) => { const m = /^\{(.+)\}$/.exec(part); return m ? `url.PathEscape(formatValue(${pathArgs.get(m[1])}))` : JSON.stringify(part); }).join('+');
  const call = `c.do(ctx, ${JSON.stringify(op.method)}, ${path}, ${query}, ${payload}, ${JSON.stringify(op.body?.contentType ?? 'application/json')}, ${JSON.stringify(op.result.kind)}, ${returns ? '&out' : 'nil'})`;
  if (returns) lines.push(`\tvar out ${returns}\n`, `\terr := ${call}\n`, '\treturn out, err\n');
  else lines.push(`\treturn ${call}\n`);
  const doc = commentLines([
    `${name} calls ${op.method} ${op.path}.${op.summary ? ` ${op.summary}` : ''}`,
    `A non-2xx answer is an *APIError${op.errorStatuses.length ? ` (documented: ${op.errorStatuses.join(', ')})` : ''}.`,
    op.deprecated ? 'Deprecated: the API marks this operation deprecated.' : undefined,
  ], '');
  return `${doc}func (c *${client}) ${name}(${params.join(', ')}) ${returns ? `(${returns}, error)` : 'error'} {\n${lines.join('')}}\n`;
}

export function emitGo(model: ApiModel, names: SdkNames): GeneratedFile[] {
  const client = names.client;
  const queryNames = new Set(model.operations.map((op) => op.queryType));
  const queryTypes = new Map(model.types.filter((t) => queryNames.has(t.name)).map((t) => [t.name, t]));
  // Method names share the namespace of the Client's fields.
  const methods = new NameScope(['BaseURL', 'Header', 'HTTPClient']);
  const out: string[] = [];
  out.push(`// Code generated by vigil sdk from ${JSON.stringify(model.title)} ${JSON.stringify(model.version)} (OpenAPI ${model.openapi}). DO NOT EDIT.

// Package ${names.package} is a client of ${commentText(model.title).replace(/\n/g, ' ')}, with the standard library only.
package ${names.package}

import (
\t"bytes"
\t"context"
\t"encoding/json"
\t"fmt"
\t"io"
\t"net/http"
\t"net/url"
\t"strconv"
\t"strings"
)
`);
  for (const type of model.types) out.push('\n', structOf(type));
  out.push(`
// APIError is a non-2xx answer: its status and its body.
type APIError struct {
\tMethod     string
\tURL        string
\tStatusCode int
\tBody       []byte
}

func (e *APIError) Error() string {
\treturn fmt.Sprintf("%s %s answered %d", e.Method, e.URL, e.StatusCode)
}

// DecodeBody decodes the error's JSON body into v.
func (e *APIError) DecodeBody(v any) error {
\treturn json.Unmarshal(e.Body, v)
}

${commentLines([`${client} is a client of ${model.title} ${model.version}.${model.defaultServer ? ` Its first server: ${model.defaultServer}` : ''} Header is sent with every request (authentication, for example).`], '')}type ${client} struct {
\tBaseURL    string
\tHeader     http.Header
\tHTTPClient *http.Client
}

// New${client} returns a ${client} for baseURL that sends header with every request.
func New${client}(baseURL string, header http.Header) *${client} {
\treturn &${client}{BaseURL: baseURL, Header: header, HTTPClient: http.DefaultClient}
}
`);
  for (const op of model.operations) out.push('\n', method(op, methods, client, queryTypes));
  out.push(`
// formatValue writes a path or query value: strings as they are, numbers and booleans in their JSON spelling, and
// anything else as JSON.
func formatValue(v any) string {
\tswitch x := v.(type) {
\tcase string:
\t\treturn x
\tcase bool:
\t\treturn strconv.FormatBool(x)
\tcase int64:
\t\treturn strconv.FormatInt(x, 10)
\tcase float64:
\t\treturn strconv.FormatFloat(x, 'f', -1, 64)
\tdefault:
\t\tdata, err := json.Marshal(x)
\t\tif err != nil {
\t\t\treturn fmt.Sprint(x)
\t\t}
\t\treturn string(data)
\t}
}

func (c *${client}) do(ctx context.Context, method, path string, query url.Values, body any, contentType, result string, out any) error {
\ttarget := strings.TrimRight(c.BaseURL, "/") + path
\tif len(query) > 0 {
\t\ttarget += "?" + query.Encode()
\t}
\tvar reader io.Reader
\tif body != nil {
\t\tdata, err := json.Marshal(body)
\t\tif err != nil {
\t\t\treturn fmt.Errorf("encode the body of %s %s: %w", method, target, err)
\t\t}
\t\treader = bytes.NewReader(data)
\t}
\treq, err := http.NewRequestWithContext(ctx, method, target, reader)
\tif err != nil {
\t\treturn err
\t}
\treq.Header.Set("Accept", "application/json")
\tfor key, values := range c.Header {
\t\treq.Header.Del(key)
\t\tfor _, value := range values {
\t\t\treq.Header.Add(key, value)
\t\t}
\t}
\tif body != nil {
\t\treq.Header.Set("Content-Type", contentType)
\t}
\thttpClient := c.HTTPClient
\tif httpClient == nil {
\t\thttpClient = http.DefaultClient
\t}
\tres, err := httpClient.Do(req)
\tif err != nil {
\t\treturn err
\t}
\tdefer res.Body.Close()
\tdata, err := io.ReadAll(res.Body)
\tif err != nil {
\t\treturn err
\t}
\tif res.StatusCode < 200 || res.StatusCode > 299 {
\t\treturn &APIError{Method: method, URL: target, StatusCode: res.StatusCode, Body: data}
\t}
\tswitch result {
\tcase "none":
\t\treturn nil
\tcase "text":
\t\tif text, ok := out.(*string); ok {
\t\t\t*text = string(data)
\t\t}
\t\treturn nil
\t}
\tif len(data) == 0 {
\t\treturn nil
\t}
\tif err := json.Unmarshal(data, out); err != nil {
\t\treturn fmt.Errorf("decode the answer to %s %s: %w", method, target, err)
\t}
\treturn nil
}
`);
  return [
    { path: `${names.file}.go`, content: out.join('') },
    // A module of its own, so that `go build` works in the output directory; Go 1.18 for `any`.
    { path: 'go.mod', content: `module ${names.package}\n\ngo 1.18\n` },
  ];
}
