import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compileJsonPath, readJsonPathNumber, redactJsonPath, redactJsonPaths, REDACTED,
} from '../../../policies/compile-json-path.js';
import { PolicyError } from '../../../policies/errors.js';

const R = REDACTED;
const redact = (value: unknown, ...expressions: string[]) =>
  redactJsonPaths(structuredClone(value), expressions.map((e) => compileJsonPath(e)));

test('the marker is the literal string [REDACTED]', () => {
  assert.is(REDACTED, '[REDACTED]');
});

test('$.a.b redacts exactly that path', () => {
  const body = { card: { number: '4111', holder: 'Ada' }, number: 'top', other: { card: { number: 'x' } } };
  assert.equal(redact(body, '$.card.number'), {
    card: { number: R, holder: 'Ada' }, number: 'top', other: { card: { number: 'x' } },
  });
});

test('the whole value is replaced, object or array included', () => {
  assert.equal(redact({ card: { number: '4111', cvc: '1' }, keep: 1 }, '$.card'), { card: R, keep: 1 });
  assert.equal(redact({ tags: ['a', 'b'], keep: 1 }, '$.tags'), { tags: R, keep: 1 });
  assert.equal(redact({ n: null }, '$.n'), { n: R });
});

test('$.*.x matches any single key at that level, and array elements', () => {
  const body = { card: { cvc: '1' }, wallet: { cvc: '2', name: 'w' }, deep: { x: { cvc: '3' } }, cvc: '0' };
  assert.equal(redact(body, '$.*.cvc'), {
    card: { cvc: R }, wallet: { cvc: R, name: 'w' }, deep: { x: { cvc: '3' } }, cvc: '0',
  });
  assert.equal(redact([{ cvc: '1' }, { cvc: '2' }], '$.*.cvc'), [{ cvc: R }, { cvc: R }]);
});

test('$.items.*.card redacts items[0].card and every other element', () => {
  const body = { items: [{ sku: 'a', card: { number: '1' } }, { sku: 'b', card: '2' }, { sku: 'c' }] };
  assert.equal(redact(body, '$.items.*.card'), { items: [{ sku: 'a', card: R }, { sku: 'b', card: R }, { sku: 'c' }] });
});

test('$.**.x matches the key at any depth, top level included, through arrays', () => {
  const body = {
    card: '0',
    a: { card: '1', b: { c: { card: '2' } } },
    list: [{ card: '3' }, [{ card: '4' }], 'card'],
    cards: 'not this one',
  };
  assert.equal(redact(body, '$.**.card'), {
    card: R,
    a: { card: R, b: { c: { card: R } } },
    list: [{ card: R }, [{ card: R }], 'card'],
    cards: 'not this one',
  });
});

test('combinations: $.a.**.b.* and $.**.x.*', () => {
  const body = { a: { b: { k1: 1, k2: 2 }, z: { b: { k3: 3 } } }, b: { k4: 4 } };
  assert.equal(redact(body, '$.a.**.b.*'), { a: { b: { k1: R, k2: R }, z: { b: { k3: R } } }, b: { k4: 4 } });
  assert.equal(redact({ p: [{ secret: [1, 2] }] }, '$.**.secret.*'), { p: [{ secret: [R, R] }] });
});

test('a literal name does not walk into arrays; a numeric name selects an index', () => {
  const body = { items: [{ card: '1' }, { card: '2' }] };
  assert.equal(redact(body, '$.items.card'), body);
  assert.equal(redact(body, '$.items.1.card'), { items: [{ card: '1' }, { card: R }] });
  assert.equal(redact(body, '$.items[0].card'), { items: [{ card: R }, { card: '2' }] });
  assert.equal(redact(body, '$.items[*].card'), { items: [{ card: R }, { card: R }] });
});

test("bracket names reach keys with dots; $ alone is the whole body", () => {
  assert.equal(redact({ 'a.b': 1, a: { b: 2 } }, "$['a.b']"), { 'a.b': R, a: { b: 2 } });
  assert.is(redact({ x: 1 }, '$'), R);
});

test('redactJsonPath counts replacements and leaves absent paths alone', () => {
  const path = compileJsonPath('$.**.cvc');
  const r = redactJsonPath({ a: { cvc: 1 }, b: [{ cvc: 2 }], c: 3 }, path);
  assert.is(r.count, 2);
  const none = redactJsonPath({ x: 1 }, compileJsonPath('$.card.number'));
  assert.is(none.count, 0);
  assert.equal(none.value, { x: 1 });
  assert.equal(redactJsonPath('a string body', path).value, 'a string body');
});

test('a key named __proto__ in parsed JSON is an own property and is redacted', () => {
  const body = JSON.parse('{"__proto__": {"card": "4111"}, "x": 1}');
  assert.equal(JSON.stringify(redact(body, '$.**.card')), '{"__proto__":{"card":"[REDACTED]"},"x":1}');
});

test('readJsonPathNumber returns the first number in document order, else null', () => {
  const usage = compileJsonPath('$.usage.total_tokens');
  assert.is(readJsonPathNumber({ usage: { total_tokens: 42 } }, usage), 42);
  assert.is(readJsonPathNumber({ usage: { total_tokens: '42' } }, usage), null);
  assert.is(readJsonPathNumber({ usage: { total_tokens: -1 } }, usage), null);
  assert.is(readJsonPathNumber({ usage: {} }, usage), null);
  assert.is(readJsonPathNumber('text', usage), null);
  const deep = compileJsonPath('$.**.tokens');
  assert.is(readJsonPathNumber({ a: { tokens: 'x' }, tokens: 9, b: [{ tokens: 7 }] }, deep), 9);
  assert.is(readJsonPathNumber({ a: { tokens: 'x' }, b: [{ tokens: 7 }], tokens: 9 }, deep), 7);
});

test('the compiled form is plain data that survives structuredClone', () => {
  const path = compileJsonPath('$.a.**.b.*');
  const copy = structuredClone(path);
  assert.equal(copy, path);
  assert.equal(redactJsonPaths({ a: { x: { b: { k: 1 } } } }, [copy]), { a: { x: { b: { k: R } } } });
});

test('bad expressions are rejected with their position', () => {
  for (const e of ['card.number', '$.', '$..a', '$.a.', '$.a**', '$.**', '$[x]', '$.a[0', '$a']) {
    try {
      compileJsonPath(e, 'rules[1].redact.json_fields[0]');
      assert.unreachable(`accepted ${e}`);
    } catch (err) {
      assert.instance(err, PolicyError);
      assert.is((err as PolicyError).code, 'VIGIL_ERR_POLICY_JSON_PATH');
      assert.match((err as PolicyError).message, /^rules\[1\]\.redact\.json_fields\[0\]: /);
    }
  }
});

test('deeply nested input is walked without special cases', () => {
  let body: Record<string, unknown> = { card: 'x' };
  for (let i = 0; i < 500; i++) body = { n: body };
  const out = redact(body, '$.**.card') as Record<string, unknown>;
  let node = out;
  for (let i = 0; i < 500; i++) node = node.n as Record<string, unknown>;
  assert.is(node.card, R);
});

test.run();
