import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { seededRandom } from '@vigil/plugin-sdk';
import { compileJsonGovernance, governJson, governOwnedJson } from '../../../policies/govern-json.js';
import { DETECTOR_KINDS } from '../../../policies/detectors/types.js';
import { PolicyError } from '../../../policies/errors.js';

const trace = {
  input: [{ role: 'user', content: 'My card is 4111 1111 1111 1111, mail me at ada@example.com' }],
  output: { text: 'Noted.', meta: { api_key: 'sk_live_abcdefghijklmnop1234' } },
};

test('JSON paths redact values wherever they match; the input is never changed', () => {
  const before = JSON.stringify(trace);
  const out = governJson(trace, { json_fields: ['$.output.meta.api_key', '$.input.*.role'] }) as typeof trace;
  assert.is(out.output.meta.api_key, '[REDACTED]');
  assert.is(out.input[0].role, '[REDACTED]');
  assert.is(out.input[0].content, trace.input[0].content);
  assert.is(JSON.stringify(trace), before);
});

test('detectors mask what they find inside free text, only of the kinds asked for', () => {
  const cards = governJson(trace, { detect: ['card_number'] }) as typeof trace;
  assert.is(cards.input[0].content, 'My card is [REDACTED], mail me at ada@example.com');
  const both = governJson(trace, { detect: ['card_number', 'email'] }) as typeof trace;
  assert.is(both.input[0].content, 'My card is [REDACTED], mail me at [REDACTED]');
});

test('a key can hold a secret: it is masked too, and two keys masked alike both keep their values', () => {
  const out = governJson({ 'ada@example.com': 1, 'bob@example.com': 2, __proto__x: 3 }, { detect: ['email'] }) as Record<string, number>;
  assert.equal(Object.values(out).sort(), [1, 2, 3]);
  assert.ok(!Object.keys(out).some((k) => k.includes('@')));
});

test('a value that is not JSON is refused, not passed through', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => governJson(cyclic, { json_fields: ['$.x'] }));
  assert.throws(() => governJson({ n: 1n }, { json_fields: ['$.x'] }));
});

test('a bad JSON path is a PolicyError naming where it is', () => {
  try {
    compileJsonGovernance({ json_fields: ['$.ok', 'nope'] }, 'llm.projects[0].redact');
    assert.unreachable();
  } catch (err) {
    assert.instance(err, PolicyError);
    assert.is((err as PolicyError).where, 'llm.projects[0].redact.json_fields[1]');
  }
});

test('strings, numbers and null pass through when nothing matches', () => {
  assert.is(governJson('plain', { detect: ['email'] }), 'plain');
  assert.is(governJson(42, { json_fields: ['$.x'] }), 42);
  assert.is(governJson(null, {}), null);
});

test('governing an owned value in place gives what governJson gives, secrets in keys and __proto__ included', () => {
  const random = seededRandom(30);
  const leaves = ['plain', 'mail ada@example.com now', 'Bearer abc123def456ghi', '4111 1111 1111 1111', 42, null, true, '[REDACTED]'];
  const keys = ['a', 'email', 'ada@example.com', 'b', 'password', '__proto__'];
  const value = (depth: number): unknown => {
    const r = random();
    if (depth > 3 || r < 0.35) return leaves[Math.floor(random() * leaves.length)];
    if (r < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    const text = `{${Array.from({ length: Math.floor(random() * 4) }, (_, i) => `${JSON.stringify(keys[Math.floor(random() * keys.length)] + (i ? i : ''))}:${JSON.stringify(value(depth + 1))}`).join(',')}}`;
    return JSON.parse(text);
  };
  const rules = [{ detect: [...DETECTOR_KINDS] }, { json_fields: ['$.**.password', '$.a[*]'], detect: ['email' as const] }, { json_fields: ['$.b'] }];
  for (let round = 0; round < 2000; round++) {
    const v = value(0);
    const text = JSON.stringify(v);
    for (const r of rules) {
      const expected = governJson(v, r);
      const owned = governOwnedJson(JSON.parse(text), r);
      assert.is(JSON.stringify(owned), JSON.stringify(expected), text);
      assert.is(Object.getPrototypeOf(owned ?? {}), Object.getPrototypeOf(expected ?? {}));
    }
  }
});

test.run();
