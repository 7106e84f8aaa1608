// `vigil mock` as a real child process on a free port, and a client that checks every answer against the spec's
// own response schema with an Ajv of its own (the spec added whole, so `$ref`s resolve as the spec wrote them).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as assert from 'uvu/assert';
import { parse as parseYaml } from 'yaml';
import { waitFor } from './net.js';
import { spawnVigil, type SpawnOptions, type VigilProcess } from './vigil-process.js';

export interface MockProcess extends VigilProcess {
  url: string;
}

/** Starts `vigil mock --spec file --port 0 …args` and waits for the line that gives its address. */
export async function startMockProcess(spec: string, args: string[] = [], options: SpawnOptions = {}): Promise<MockProcess> {
  const p = spawnVigil(['mock', '--spec', spec, '--port', '0', ...args], options);
  let dead = false;
  void p.exited.then(() => { dead = true; });
  const url = await waitFor(() => {
    if (dead) throw new Error(`vigil mock exited: ${p.stderr()}`);
    return /on (http:\/\/\S+) /.exec(p.stdout())?.[1] ?? '';
  }, { timeoutMs: 20_000, what: 'vigil mock to listen' }).catch(async (e) => { await p.stop('SIGKILL'); throw e; });
  return { ...p, url };
}

// Formats checked strictly here, independently of the mock's own list.
const FORMATS: Record<string, (s: string) => boolean> = {
  email: (s) => /^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$/i.test(s),
  uuid: (s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(s),
  'date-time': (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)),
  uri: (s) => { try { return Boolean(new URL(s).protocol); } catch { return false; } },
  ipv4: (s) => /^(\d{1,3})(\.\d{1,3}){3}$/.test(s) && s.split('.').every((n) => Number(n) <= 255),
};

export interface MockCall {
  status: number;
  mode: string | null;
  headers: Headers;
  body: any;
}

/** A client of one spec: each answer must be declared by the operation and must validate against its schema. */
export function specClient(specFile: string) {
  const raw = readFileSync(specFile, 'utf8');
  const doc = parseYaml(raw) as any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  for (const [name, fn] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: fn });
  // OpenAPI 3.0's `nullable` is one of Ajv's own keywords: 3.0 documents validate as 3.0 means them.
  ajv.addSchema(doc, 'spec');
  const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  let validated = 0;

  /** The JSON-pointer of the response schema for one status, following a `$ref` to components.responses. */
  function schemaRef(template: string, method: string, status: number): string | undefined {
    const responses = doc.paths[template]?.[method.toLowerCase()]?.responses;
    assert.ok(responses, `the spec declares ${method} ${template}`);
    const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : undefined;
    assert.ok(key, `${method} ${template} declares ${status} (declared: ${Object.keys(responses).join(', ')})`);
    let base = `#/${pointer('paths', template, method.toLowerCase(), 'responses', key!)}`;
    let response = responses[key!];
    if (response.$ref) { base = response.$ref; response = base.slice(2).split('/').map((p: string) => p.replace(/~1/g, '/')).reduce((n: any, k: string) => n[k], doc); }
    const media = Object.keys(response.content ?? {}).find((t) => /json/.test(t));
    return media ? `${base}/${pointer('content', media, 'schema')}` : undefined;
  }

  async function call(base: string, method: string, path: string, template: string, body?: unknown, headers: Record<string, string> = {}): Promise<MockCall> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    const ref = schemaRef(template, method, res.status);
    if (ref) {
      const validate = ajv.getSchema(`spec${ref}`) ?? ajv.compile({ $ref: `spec${ref}` });
      assert.ok(validate(parsed), `${method} ${path} → ${res.status}: ${text}\ndoes not match ${ref}: ${JSON.stringify(validate.errors)}`);
      validated++;
    } else {
      assert.is(text, '', `${method} ${path} → ${res.status} declares no content`);
    }
    return { status: res.status, mode: res.headers.get('x-vigil-mock'), headers: res.headers, body: parsed };
  }
  return { doc, call, validated: () => validated };
}
