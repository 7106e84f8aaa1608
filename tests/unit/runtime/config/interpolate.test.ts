import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpolateString, isWholeReference } from '../../../../runtime/config/interpolate.js';

const env = { HOST: 'db', PORT: '5432', EMPTY: '' };

test('${VAR} is replaced by its value', () => {
  assert.equal(interpolateString('postgres://${HOST}:${PORT}/x', env), { text: 'postgres://db:5432/x', missing: [] });
});

test('${VAR:-default} uses the default when unset or empty, the value otherwise', () => {
  assert.is(interpolateString('${NOPE:-fallback}', env).text, 'fallback');
  assert.is(interpolateString('${EMPTY:-fallback}', env).text, 'fallback');
  assert.is(interpolateString('${HOST:-fallback}', env).text, 'db');
  assert.is(interpolateString('${NOPE:-}', env).text, '');
});

test('an empty but set variable without a default is not missing', () => {
  assert.equal(interpolateString('[${EMPTY}]', env), { text: '[]', missing: [] });
});

test('unset variables without a default are listed once each', () => {
  const r = interpolateString('${A}/${B}/${A}', env);
  assert.equal(r.missing, ['A', 'B']);
});

test('$${ is a literal ${ and is not expanded', () => {
  assert.is(interpolateString('cost: $${HOST}', env).text, 'cost: ${HOST}');
  assert.equal(interpolateString('$${NOPE}', env).missing, []);
});

test('a default is taken literally', () => {
  assert.is(interpolateString('${NOPE:-a:b-c}', env).text, 'a:b-c');
});

test('malformed references are reported', () => {
  assert.ok(interpolateString('${bad-name}', env).malformed);
  assert.ok(interpolateString('${UNCLOSED', env).malformed);
  assert.ok(interpolateString('${}', env).malformed);
  assert.is(interpolateString('$HOST {x}', env).malformed, undefined);
});

test('a whole reference is exactly one ${…} and nothing else', () => {
  assert.ok(isWholeReference('${PORT}'));
  assert.ok(isWholeReference('${PORT:-8080}'));
  assert.not.ok(isWholeReference('x${PORT}'));
  assert.not.ok(isWholeReference('${A}${B}'));
  assert.not.ok(isWholeReference('$${PORT}'));
});

test.run();
