import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileJsonPath, REDACTED } from '../../../../../policies/compile-json-path.js';
import { coverageChanges } from '../../../../../plugins/governance/review/json-coverage.js';

const paths = (...e: string[]) => e.map((x) => compileJsonPath(x));
const changes = (body: unknown, base: string[], head: string[]) => {
  const c = coverageChanges(body, paths(...base), paths(...head));
  return { stops: [...c.stops].sort(), starts: [...c.starts].sort() };
};

test('a field one policy masks and the other does not, either way', () => {
  const body = { card: { number: '4111', cvc: '1' }, amount: 3 };
  assert.equal(changes(body, ['$.card.number'], []), { stops: ['$.card.number'], starts: [] });
  assert.equal(changes(body, [], ['$.card.number']), { stops: [], starts: ['$.card.number'] });
  assert.equal(changes(body, ['$.card.number'], ['$.**.number']), { stops: [], starts: [] });
});

test('a masked subtree narrowed to one key: the rest of it is now stored, leaf by leaf', () => {
  const body = { card: { number: '4111', cvc: '1', holder: { name: 'Ada' }, tags: [] } };
  assert.equal(changes(body, ['$.card'], ['$.card.number']), { stops: ['$.card.cvc', '$.card.holder.name', '$.card.tags'], starts: [] });
});

test('array elements are one path; values stored masked are leaves like any other', () => {
  const body = { items: [{ token: REDACTED, sku: 'a' }, { token: REDACTED, sku: 'b' }] };
  assert.equal(changes(body, ['$.items.*.token'], ['$.items.*.sku']), { stops: ['$.items.*.token'], starts: ['$.items.*.sku'] });
});

test('odd keys are written as the rules write them; the body is never changed', () => {
  const body = { 'a.b': 1, "it's": 2 };
  const before = JSON.stringify(body);
  const stops = changes(body, ["$['a.b']", '$["it\'s"]'], []).stops;
  assert.equal(stops, ["$['a.b']", '$["it\'s"]'].sort());
  // Each path as reported compiles back to one that masks the same key.
  assert.equal(changes(body, stops, []).stops, stops);
  assert.is(JSON.stringify(body), before);
});

test('a text body under any json_fields is not stored at all (fails closed): covered whole, as $', () => {
  assert.equal(changes('plain text', ['$.x'], []), { stops: ['$'], starts: [] });
  assert.equal(changes('plain text', [], ['$.x']), { stops: [], starts: ['$'] });
  assert.equal(changes('plain text', ['$.x'], ['$.y']), { stops: [], starts: [] });
});

test('the whole body masked by one policy', () => {
  assert.equal(changes({ a: 1, b: [1, 2] }, ['$'], ['$.a']), { stops: ['$.b.*'], starts: [] });
});

test.run();
