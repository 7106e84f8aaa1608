// policies/json-text.ts: governing JSON as text. Checked against the object walkers (redactJsonPaths,
// readJsonPathNumber) and JSON.parse on generated documents, paths and corruptions, plus the cases that matter most.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileJsonPath, readJsonPathNumber, redactJsonPaths, REDACTED } from '../../../policies/compile-json-path.js';
import { governJsonText, MAX_JSON_DEPTH, type JsonTextPlan } from '../../../policies/json-text.js';

const plan = (redact: string[], read: string | null = null): JsonTextPlan => ({
  redact: redact.map((e) => compileJsonPath(e)), read: read === null ? null : compileJsonPath(read),
});
const governed = (text: string, p: JsonTextPlan) => {
  const r = governJsonText(text, p);
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r;
};

test('untouched bodies come back as the very same text, whitespace and all', () => {
  const text = ' {\n  "a" : [1, 2.5e-3, -0, true, false, null, "x\\u00e9\\n"] }\t';
  const r = governed(text, plan(['$.missing']));
  assert.is(r.text, text);
  assert.is(r.redactions, 0);
});

test('redacted values are cut out of the text, and everything else is kept byte for byte', () => {
  const text = '{"card": {"number": "4111 1111", "cvc":123}, "items":[{"iban":"DE89"}, {"iban": {"x": [1]}}],  "note":"k"}';
  const r = governed(text, plan(['$.card.number', '$.*.cvc', '$.**.iban']));
  assert.is(r.text, '{"card": {"number": "[REDACTED]", "cvc":"[REDACTED]"}, "items":[{"iban":"[REDACTED]"}, {"iban": "[REDACTED]"}],  "note":"k"}');
  assert.is(r.redactions, 4);
});

test('a key written with escapes is still the key the path names', () => {
  const r = governed('{"p\\u0061ssword":"hunter2","\\"q\\"":1}', plan(['$.password', "$['\"q\"']"]));
  assert.equal(JSON.parse(r.text), { password: REDACTED, '"q"': REDACTED });
});

test('a key that occurs twice is redacted at both places', () => {
  const r = governed('{"ssn":"1","ssn":"2"}', plan(['$.ssn']));
  assert.is(r.text, '{"ssn":"[REDACTED]","ssn":"[REDACTED]"}');
});

test('a path built elsewhere with "**" twice in a row matches as one "**" (zero levels included)', () => {
  const path = { expression: '$.**.**.a', segments: [{ kind: 'deep' }, { kind: 'deep' }, { kind: 'key', name: 'a' }] } as const;
  const r = governed('{"a":1,"b":{"a":2}}', { redact: [path], read: null });
  assert.is(r.text, '{"a":"[REDACTED]","b":{"a":"[REDACTED]"}}');
});

test('$ redacts the whole body', () => {
  assert.is(governed('[1,2]', plan(['$'])).text, '"[REDACTED]"');
});

test('the meter reads the first usable number in document order, and not from inside a redacted value', () => {
  assert.is(governed('{"usage":{"total_tokens":42}}', plan([], '$.usage.total_tokens')).number, 42);
  assert.is(governed('{"a":{"tokens":"x"},"tokens":9,"b":[{"tokens":7}]}', plan([], '$.**.tokens')).number, 9);
  assert.is(governed('{"tokens":-1,"b":[{"tokens":7}]}', plan([], '$.**.tokens')).number, 7);
  assert.is(governed('{"tokens":1e400}', plan([], '$.tokens')).number, null);
  assert.is(governed('{"usage":{"tokens":5}}', plan(['$.usage'], '$.usage.tokens')).number, null);
});

test('invalid JSON is refused, as JSON.parse refuses it', () => {
  for (const text of ['', ' ', '{', '{"a":}', '{"a" 1}', '{a:1}', "{'a':1}", '[1,]', '[,1]', '{"a":1,}', '01', '1.', '.5', '+1', '-',
    '1e', '1e+', 'tru', 'nul', 'True', '"a', '"\\x"', '"\\u12"', '"\u0001"', '"a"b', '[1 2]', 'NaN', 'Infinity', '{"a":1}}', '\u00a01']) {
    const r = governJsonText(text, plan(['$.a']));
    assert.equal(r, { ok: false, reason: 'malformed' }, JSON.stringify(text));
    assert.throws(() => JSON.parse(text), undefined, JSON.stringify(text));
  }
});

test(`nesting deeper than ${MAX_JSON_DEPTH} levels is refused; exactly ${MAX_JSON_DEPTH} is accepted`, () => {
  const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
  assert.ok(governJsonText(nested(MAX_JSON_DEPTH), plan(['$.**.x'])).ok);
  assert.equal(governJsonText(nested(MAX_JSON_DEPTH + 1), plan(['$.**.x'])), { ok: false, reason: 'too-deep' });
  assert.equal(governJsonText(nested(100_000), plan([])), { ok: false, reason: 'too-deep' });
  // Brackets inside strings are not nesting.
  assert.ok(governJsonText(JSON.stringify({ s: '['.repeat(1000) }), plan(['$.s'])).ok);
});

// ---- generated documents ------------------------------------------------------------------------------------------

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Keys that start with another key ('ab', 'cards') or spell an index loosely ('01') must not pass for it.
const KEYS = ['a', 'b', 'ab', 'card', 'cards', 'number', 'ssn', 'tokens', '0', '1', '01', 'é', 'x y', '__proto__', 'constructor'];
const PATHS = ['$.a', '$.card.number', '$.*.ssn', '$.**.ssn', '$.**.card', '$.a.*', '$.*.*.b', '$.**.0', '$[1]', "$['x y']",
  '$.**.a.**.b', '$.a.**.a', '$.__proto__', '$.**.constructor.*', '$.*.01'];

function value(rnd: () => number, depth: number): unknown {
  const r = rnd();
  if (depth > 4 || r < 0.35) {
    const leaves = [null, true, false, 0, -0, 7, -3.5, 1e21, 12345678901234567000, 'text', '', 'q"\\\n\u2028', 'é😀'];
    return leaves[Math.floor(rnd() * leaves.length)];
  }
  const n = Math.floor(rnd() * 4);
  if (r < 0.6) return Array.from({ length: n }, () => value(rnd, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) Object.defineProperty(o, KEYS[Math.floor(rnd() * KEYS.length)], { value: value(rnd, depth + 1), enumerable: true, writable: true, configurable: true });
  return o;
}

/** Some keys spelled with escapes, and whitespace between tokens: the same JSON, written differently. */
function spell(v: unknown, rnd: () => number): string {
  let text = JSON.stringify(v, null, rnd() < 0.5 ? undefined : Math.floor(rnd() * 3));
  if (rnd() < 0.5) text = text.replaceAll('"card"', '"c\\u0061rd"').replaceAll('"ssn":', '"\\u0073sn":');
  return text;
}

test('on generated documents and paths, the text result parses to what the object walkers produce', () => {
  const rnd = random(1);
  for (let i = 0; i < 3000; i++) {
    const doc = value(rnd, 0);
    const exprs = PATHS.filter(() => rnd() < 0.25);
    const read = rnd() < 0.5 ? PATHS[Math.floor(rnd() * PATHS.length)] : '$.**.tokens';
    const text = spell(doc, rnd);
    const p = plan(exprs, read);
    const r = governed(text, p);
    const expected = redactJsonPaths(JSON.parse(text), p.redact);
    // Compared as JSON: uvu's deep equality reads a `constructor` key as the object's class.
    assert.is(JSON.stringify(JSON.parse(r.text)), JSON.stringify(expected), `${text} with ${exprs.join(' ')}`);
    assert.is(r.number, readJsonPathNumber(expected, p.read!), `${text} reading ${read}`);
  }
});

const NOISE = ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', '0', '-', 'e', '.', 'u', '\u0000', 'n', 't'];

/** A generated document with one character dropped or inserted, or cut short. */
function corrupted(rnd: () => number): string {
  const text = spell(value(rnd, 0), rnd);
  const at = Math.floor(rnd() * (text.length + 1));
  const op = rnd();
  if (op < 0.4) return text.slice(0, at) + text.slice(at + 1);
  if (op < 0.8) return text.slice(0, at) + NOISE[Math.floor(rnd() * NOISE.length)] + text.slice(at);
  return text.slice(0, at);
}

test('on corrupted documents, the text scan accepts exactly what JSON.parse accepts', () => {
  const rnd = random(2);
  let refused = 0;
  for (let i = 0; i < 5000; i++) {
    const text = corrupted(rnd);
    let parses = true;
    try { JSON.parse(text); } catch { parses = false; }
    const r = governJsonText(text, plan(['$.**.ssn', '$.card']));
    assert.is(r.ok, parses, JSON.stringify(text));
    if (!parses) refused++;
  }
  assert.ok(refused > 1000, `only ${refused} corruptions were invalid JSON`);
});

// One read past the end makes V8 compile that charCodeAt as a builtin call from then on (json-text.ts, `at`).
test('the text scan never reads a character past the end, however the text is cut', () => {
  const rnd = random(3);
  const texts = ['{"a":', '{"a":1', '[1', '12', '-', '1.', '1e', '"ab\\', '"\\u00', '{"a', 't', ' '];
  for (let i = 0; i < 3000; i++) texts.push(corrupted(rnd));
  const charCodeAt = String.prototype.charCodeAt;
  const outOfRange: string[] = [];
  String.prototype.charCodeAt = function (this: string, index: number) {
    if (!(index >= 0 && index < this.length)) outOfRange.push(`${JSON.stringify(String(this))} at ${index}`);
    return charCodeAt.call(this, index);
  };
  try {
    for (const text of texts) governJsonText(text, plan(['$.**.ssn', '$.card'], '$.**.tokens'));
  } finally {
    String.prototype.charCodeAt = charCodeAt;
  }
  assert.equal(outOfRange.slice(0, 5), []);
});

test.run();
