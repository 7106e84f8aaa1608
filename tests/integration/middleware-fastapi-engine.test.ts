// The Python port of the governance engine (middleware/python, vigil-fastapi) against the TypeScript engine on
// generated inputs: path readings and the fold, percent-decoding, the JSON text scan (validation, redaction, metering),
// the detectors, masking inside parsed JSON, JSON.stringify's text, and query records. Both engines get the same
// inputs; every answer must be equal. The corpus checks whole records; this checks the parts on far more inputs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { pathReadings, foldPath } from '../../policies/fold-path.js';
import { decodeEscapes } from '../../policies/decode-escapes.js';
import { compileJsonPath } from '../../policies/compile-json-path.js';
import { governJsonText } from '../../policies/json-text.js';
import { redactText } from '../../policies/detectors/index.js';
import { maskStrings } from '../../policies/govern-json.js';
import { queryToRecord } from '../../gateway/govern/query-record.js';
import { PYTHON } from '../support/conformance/drivers.js';
import { fromRoot } from '../support/paths.js';
import { adminUsers, authorityTricks, eachSpelling, paymentsCharge, terminatorTricks } from '../support/path-spellings.js';

// A seeded generator: the same inputs on every run, so a failure is reproducible.
let seed = 0x5eed1234;
const rand = (): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x80000000;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const times = <T>(n: number, f: () => T): T[] => Array.from({ length: n }, f);

const PATH_PARTS = ['/', '/', '/', 'a', 'B', 'admin', 'users', '.', '..', '%2e', '%2F', '%5c', '\\', ';', ';x=1', '%25', '%', '%u0061',
  '%C0%AF', '%EF%BD%81', 'é', 'İ', 'ı', '\u00a0', '%00', '%20', '%3f', '%23', '#', '.json', 'charge.tar.gz', '//', 'http://h', '~', '*'];
const target = () => times(1 + Math.floor(rand() * 8), () => pick(PATH_PARTS)).join('');

const KEYS = ['a', 'b', 'card', 'password', 'x', '0', '1', '10', 'total', 'usage', 'a.b', 'é', '__proto__'];
function jsonValue(depth: number): string {
  const r = rand();
  if (depth > 3 || r < 0.3) return pick(['1', '-0', '2.50', '1e3', '-1.5E-2', '12345678901234567890', 'true', 'false', 'null', '"s"', '"\\u00e9\\n"', '"ada@example.com"', '"4111 1111 1111 1111"']);
  if (r < 0.65) {
    const n = Math.floor(rand() * 4);
    return `{${times(n, () => `${pick([' ', ''])}${JSON.stringify(pick(KEYS))}${pick(['', ' '])}:${jsonValue(depth + 1)}`).join(',')}}`;
  }
  return `[${times(Math.floor(rand() * 4), () => jsonValue(depth + 1)).join(pick([',', ', ']))}]`;
}
const corrupt = (text: string): string => {
  const r = rand();
  if (r < 0.8) return text;
  const at = Math.floor(rand() * (text.length + 1));
  return text.slice(0, at) + pick(['', ',', '}', ']', '"', 'NaN', '\u0001', '01']) + text.slice(at + (r < 0.9 ? 1 : 0));
};
const JSON_PATHS = ['$.a', '$.a.b', '$.*.x', '$.**.card', '$.**.password', '$.usage.total', '$[0]', '$.*', "$['a.b']", '$.**.0', '$.a.**.a', '$'];

const TEXT_PARTS = ['hello ', 'ada@example.com', ' 4111 1111 1111 1111', '4111-1111-1111-1111', ' 1700000000000 ', 'GB82 WEST 1234 5698 7654 32',
  'Bearer abcdefghijkl', 'api_key=abcdefghijklmnop1234', 'sk_live_abcdefghijklmnop1234', 'AKIAABCDEFGHIJKLMNOP', '123-45-6789', '000-12-3456',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', 'eyJub3QiOjF9x.eyJzdWIiOiIxIn0.x', '-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----',
  'ghp_' + 'a'.repeat(36), '\u00e9\u2028', ' ', '-', '@', 'x.y@z'];
const text = () => times(1 + Math.floor(rand() * 5), () => pick(TEXT_PARTS)).join('');

const QUERY_PARTS = ['a=1', 'token=x', 'Token=y', '%74oken=z', 'b', 'b=', '=v', 'c=%E2%82%AC', 'd=%ZZ', 'e=%C3', 'f=a+b', '2=x', '1=y', '__proto__=p', 'a=2'];
const query = () => `/p?${times(Math.floor(rand() * 5), () => pick(QUERY_PARTS)).join('&')}${pick(['', '#frag'])}`;

const spellings = [adminUsers, paymentsCharge, authorityTricks, terminatorTricks].flatMap((s) => eachSpelling(s).map(([, t]) => t));
const inputs = {
  readings: [...spellings, ...times(1500, target)],
  folds: times(500, target),
  decodes: times(500, () => times(1 + Math.floor(rand() * 6), () => pick(['%41', '%c3%a9', '%C0%AF', '%ED%A0%80', '%uD83D%uDE00', '%uD800', '%u00e9', '%', '%4', 'x', 'é', '%F0%9F%98', '%FF'])).join('')),
  jsonText: [
    // Nesting at and past the scan's depth bound, whole and cut.
    ...[255, 256, 257, 300].flatMap((n) => [`${'['.repeat(n)}${']'.repeat(n)}`, `${'[{"a":'.repeat(n / 2)}1${'}]'.repeat(n / 2)}`, `${'['.repeat(n)}x`])
      .map((t) => ({ text: t, redact: ['$.**.a'], read: null })),
    ...times(1500, () => ({
    text: corrupt(jsonValue(0)), redact: times(Math.floor(rand() * 3), () => pick(JSON_PATHS)), read: rand() < 0.4 ? pick(['$.usage.total', '$.**.total', '$.a', '$[0]', '$.*']) : null,
  }))],
  redactText: times(1000, text),
  maskStrings: times(300, () => JSON.stringify({ [text()]: text(), n: [text(), 1.5, { [pick(KEYS)]: text() }], '2': text() })),
  stringify: times(300, () => { const t = jsonValue(0); try { JSON.parse(t); return t; } catch { return '{}'; } }),
  query: times(500, query),
};

function typescriptAnswers() {
  return {
    readings: inputs.readings.map((t) => pathReadings(t)),
    folds: inputs.folds.map((t) => foldPath(t)),
    decodes: inputs.decodes.map((t) => decodeEscapes(t)),
    jsonText: inputs.jsonText.map((i) => {
      const r = governJsonText(i.text, { redact: i.redact.map((p) => compileJsonPath(p)), read: i.read === null ? null : compileJsonPath(i.read) });
      return r.ok ? { ok: true, text: r.text, redactions: r.redactions, number: r.number === null ? null : JSON.stringify(r.number) } : { ok: false, reason: r.reason };
    }),
    redactText: inputs.redactText.map((t) => redactText(t)),
    maskStrings: inputs.maskStrings.map((t) => JSON.stringify(maskStrings(JSON.parse(t), ['email', 'card_number', 'api_key']))),
    stringify: inputs.stringify.map((t) => JSON.stringify(JSON.parse(t))),
    query: inputs.query.map((t) => JSON.stringify(queryToRecord(t, new Set(['token'])))),
  };
}

function pythonAnswers(): Promise<Record<string, unknown[]>> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [fromRoot('middleware/python/tests/differential_driver.py')], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`python exited ${code}: ${stderr}`))));
    child.stdin.end(JSON.stringify(inputs));
  });
}

test('the Python port answers as the TypeScript engine on every generated input', async () => {
  const ts = typescriptAnswers() as Record<string, unknown[]>;
  const py = await pythonAnswers();
  let compared = 0;
  for (const [kind, answers] of Object.entries(ts)) {
    const theirs = py[kind];
    assert.is(theirs.length, answers.length, kind);
    const wrong: string[] = [];
    answers.forEach((a, i) => {
      compared++;
      if (JSON.stringify(a) !== JSON.stringify(theirs[i])) {
        const input = (inputs as Record<string, unknown[]>)[kind][i];
        wrong.push(`${JSON.stringify(input)}\n    ts ${JSON.stringify(a)}\n    py ${JSON.stringify(theirs[i])}`);
      }
    });
    assert.ok(wrong.length === 0, `${kind}: ${wrong.length} of ${answers.length} differ:\n  ${wrong.slice(0, 8).join('\n  ')}`);
  }
  assert.ok(compared > 5000, `${compared} answers compared`);
});

test.run();
