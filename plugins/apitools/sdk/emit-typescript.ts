// The TypeScript client: one module, interfaces for the types and a class with one async method per operation,
// over the global `fetch` (Node 18+, browsers). It compiles under `tsc --strict`.
import type { ApiModel, FieldModel, ObjectModel, OperationModel, TypeRef } from './model.js';
import { NameScope, camelCase, commentText, words as wordsOf } from './names.js';
import type { GeneratedFile, SdkNames } from './generate.js';

const RESERVED = [
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export',
  'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super',
  'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'implements',
  'interface', 'package', 'private', 'protected', 'public', 'await', 'arguments', 'eval', 'undefined', 'NaN', 'Infinity',
  'async', 'of', 'type', 'any', 'unknown', 'never', 'object', 'string', 'number', 'boolean', 'symbol',
  // globals the generated methods use
  'String', 'encodeURIComponent', 'JSON', 'Array', 'Object',
];
/** Type names the module must not shadow (its code uses them). */
export const TS_RESERVED_TYPES = ['Record', 'Promise', 'Error', 'Array', 'Parameters', 'NonNullable', 'URLSearchParams', 'Response', 'String', 'Object', 'JSON'];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const fixIdentifier = (name: string) => {
  const base = name || 'value';
  const start = /^[0-9]/.test(base) ? `_${base}` : base;
  return RESERVED.includes(start) ? `${start}_` : start;
};

/** A property key: bare when it is an identifier, quoted otherwise (`'content-type'`, `'2fa'`). */
const propertyKey = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

export function tsType(t: TypeRef): string {
  let s: string;
  switch (t.kind) {
    case 'string': s = 'string'; break;
    case 'integer': case 'number': s = 'number'; break;
    case 'boolean': s = 'boolean'; break;
    case 'unknown': return 'unknown';
    case 'null': return 'null';
    case 'enum': s = t.values.map((v) => JSON.stringify(v)).join(' | '); break;
    case 'array': s = `Array<${tsType(t.items)}>`; break;
    case 'map': s = `Record<string, ${tsType(t.values)}>`; break;
    case 'named': s = t.name; break;
    case 'union': s = t.variants.map(tsType).join(' | '); break;
  }
  return t.nullable ? `${s} | null` : s;
}

function docComment(lines: (string | undefined)[], indent: string): string {
  const text = lines.filter((l): l is string => !!l).map(commentText).join('\n\n');
  if (!text) return '';
  const body = text.split('\n');
  return body.length === 1 ? `${indent}/** ${body[0]} */\n` : `${indent}/**\n${body.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */\n`;
}

function fieldLine(f: FieldModel): string {
  const notes = [f.description, f.type.kind !== 'named' && 'format' in f.type && f.type.format ? `Format: ${f.type.format}.` : undefined,
    f.redacted ? 'Redacted by the gateway in captured traffic.' : undefined];
  return `${docComment(notes, '  ')}  ${propertyKey(f.jsonName)}${f.required ? '' : '?'}: ${tsType(f.type)};\n`;
}

function interfaceOf(type: ObjectModel): string {
  const fields = type.fields.map(fieldLine).join('');
  return `${docComment([type.description], '')}export interface ${type.name} {\n${fields}}\n`;
}

const templateText = (text: string) => text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

function method(op: OperationModel, methods: NameScope): string {
  const name = methods.claim(camelCase(op.nameWords).replace(/^([0-9])/, 'op$1'));
  const scope = new NameScope(RESERVED, fixIdentifier);
  const params: { name: string; type: string; required: boolean }[] = [];
  const pathArgs = new Map<string, string>();
  for (const p of op.pathParams) {
    const arg = scope.claim(camelCase(wordsOf(p.name)));
    pathArgs.set(p.name, arg);
    params.push({ name: arg, type: p.type.kind === 'integer' || p.type.kind === 'number' ? 'string | number' : tsType(p.type), required: true });
  }
  const bodyArg = op.body ? scope.claim('body') : undefined;
  if (op.body && bodyArg) params.push({ name: bodyArg, type: tsType(op.body.type), required: op.body.required });
  const queryArg = op.queryType ? scope.claim('query') : undefined;
  if (op.queryType && queryArg) params.push({ name: queryArg, type: op.queryType, required: op.queryParams.some((q) => q.required) });
  // An optional parameter before a required one is written `name: T | undefined`.
  const lastRequired = params.map((p) => p.required).lastIndexOf(true);
  const signature = params.map((p, i) => (p.required ? `${p.name}: ${p.type}`
    : i < lastRequired ? `${p.name}: ${p.type} | undefined` : `${p.name}?: ${p.type}`)).join(', ');

  const path = op.path.replace(/\{([^}]+)\}|([^{]+)/g, (_m, param: string | undefined, text: string | undefined) =>
    (param !== undefined ? `\${encodeURIComponent(String(${pathArgs.get(param)}))}` : templateText(text ?? '')));
  const returns = op.result.kind === 'json' ? tsType(op.result.type) : op.result.kind === 'text' ? 'string' : 'void';
  const call = `this.#send('${op.method}', \`${path}\`, ${queryArg ?? 'undefined'}, ${bodyArg ?? 'undefined'}, ${JSON.stringify(op.body?.contentType ?? 'application/json')}, '${op.result.kind}')`;
  const doc = docComment([
    op.summary, `\`${op.method} ${op.path}\``,
    op.errorStatuses.length ? `Throws ApiError for a non-2xx answer (documented: ${op.errorStatuses.join(', ')}).` : 'Throws ApiError for a non-2xx answer.',
    op.deprecated ? '@deprecated' : undefined,
  ], '  ');
  const bodyLine = returns === 'void' ? `    await ${call};\n` : `    return (await ${call}) as ${returns};\n`;
  return `${doc}  async ${name}(${signature}): Promise<${returns}> {\n${bodyLine}  }\n`;
}

export function emitTypeScript(model: ApiModel, names: SdkNames): GeneratedFile[] {
  const client = names.client;
  const options = `${client}Options`;
  // `then` would make the client a thenable, which `await` unwraps.
  const methods = new NameScope(['constructor', 'baseUrl', 'then']);
  const out: string[] = [];
  out.push(`// Generated by \`vigil sdk\` from "${commentText(model.title)}" ${commentText(model.version)} (OpenAPI ${model.openapi}). Do not edit; regenerate.\n`);
  out.push('// No dependencies: the global fetch of Node 18+ and browsers.\n\n');
  for (const type of model.types) out.push(interfaceOf(type), '\n');
  out.push(`/** A non-2xx answer: its status and its body (parsed JSON, or the text when it is not JSON). */
export class ApiError extends Error {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly body: unknown;
  readonly text: string;

  constructor(method: string, url: string, status: number, body: unknown, text: string) {
    super(\`\${method} \${url} answered \${status}\`);
    this.name = 'ApiError';
    this.method = method;
    this.url = url;
    this.status = status;
    this.body = body;
    this.text = text;
  }
}

export interface ${options} {
  /** Headers sent with every request, for example \`{ authorization: 'Bearer …' }\`. */
  headers?: Record<string, string>;
  /** The fetch to use (an instrumented one, for example); the global fetch by default. */
  fetch?: typeof fetch;
}

${docComment([`A client of ${model.title} ${model.version}.${model.defaultServer ? ` Its first server: ${model.defaultServer}` : ''}`], '')}export class ${client} {
  readonly baseUrl: string;
  readonly #headers: Record<string, string>;
  readonly #fetch: typeof fetch;

  constructor(baseUrl: string, options: ${options} = {}) {
    this.baseUrl = baseUrl.replace(/\\/+$/, '');
    this.#headers = { ...options.headers };
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

`);
  out.push(model.operations.map((op) => method(op, methods)).join('\n'));
  out.push(`
  async #send(method: string, path: string, query: object | undefined, body: unknown, contentType: string, result: 'json' | 'text' | 'none'): Promise<unknown> {
    let url = this.baseUrl + path;
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      // Arrays repeat the key (OpenAPI's default form style); objects go as JSON; absent values are left out.
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === undefined || item === null) continue;
        search.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
      }
    }
    const encoded = search.toString();
    if (encoded) url += \`?\${encoded}\`;
    const headers: Record<string, string> = { accept: 'application/json', ...this.#headers };
    const init: NonNullable<Parameters<typeof fetch>[1]> = { method, headers };
    if (body !== undefined) {
      headers['content-type'] = contentType;
      init.body = JSON.stringify(body);
    }
    const response = await this.#fetch(url, init);
    const text = await response.text();
    if (!response.ok) {
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: the error carries the text
      }
      throw new ApiError(method, url, response.status, parsed, text);
    }
    if (result === 'none') return undefined;
    if (result === 'text') return text;
    return text ? JSON.parse(text) : undefined;
  }
}
`);
  return [{ path: `${names.file}.ts`, content: out.join('') }];
}
