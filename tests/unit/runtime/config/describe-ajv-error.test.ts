import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { JsonSchema } from '@vigil/plugin-sdk';
import { validateSection } from '../../../../runtime/config/validate.js';
import { loadConfigText } from '../../../../runtime/config/load-yaml.js';
import { ConfigError, type ConfigProblem } from '../../../../runtime/config/errors.js';

/** Validates `v: <yaml>` against `{ properties: { v: schema } }` and returns the single problem. */
function problemFor(schema: JsonSchema, yamlValue: string): ConfigProblem {
  const loaded = loadConfigText(`v: ${yamlValue}\n`, '/srv/vigil.yaml', {});
  try {
    validateSection(loaded, [], { type: 'object', properties: { v: schema } }, loaded.data);
  } catch (err) {
    assert.instance(err, ConfigError);
    const { problems } = err as ConfigError;
    assert.is(problems.length, 1, problems.map((p) => p.message).join('; '));
    return problems[0];
  }
  throw new Error(`expected ${yamlValue} to be rejected`);
}

const cases: [name: string, schema: JsonSchema, value: string, code: string, message: string][] = [
  ['maximum', { type: 'number', maximum: 1 }, '2', 'RANGE', 'v must be ≤ 1'],
  ['minimum', { type: 'number', minimum: 0 }, '-1', 'RANGE', 'v must be ≥ 0'],
  ['exclusiveMaximum', { type: 'number', exclusiveMaximum: 10 }, '10', 'RANGE', 'v must be < 10'],
  ['exclusiveMinimum', { type: 'number', exclusiveMinimum: 0 }, '0', 'RANGE', 'v must be > 0'],
  ['formatMinimum on a duration', { type: ['string', 'integer'], format: 'duration', formatMinimum: '1ms' }, '0s', 'RANGE', 'v must be ≥ 1ms'],
  ['formatMinimum on a number of ms', { type: ['string', 'integer'], format: 'duration', formatMinimum: '1ms' }, '0', 'RANGE', 'v must be ≥ 1ms'],
  ['formatMaximum on a duration', { type: ['string', 'integer'], format: 'duration', formatMaximum: '1m' }, '1m1ms', 'RANGE', 'v must be ≤ 1m'],
  ['formatMinimum on a byte size', { type: ['string', 'integer'], format: 'byte-size', formatMinimum: '1kb' }, '1023b', 'RANGE', 'v must be ≥ 1kb'],
  ['multipleOf', { type: 'integer', multipleOf: 5 }, '7', 'RANGE', 'v must be a multiple of 5'],
  ['minLength 1', { type: 'string', minLength: 1 }, '""', 'RANGE', 'v must not be empty'],
  ['minLength', { type: 'string', minLength: 16 }, 'short', 'RANGE', 'v must be at least 16 characters long'],
  ['maxLength', { type: 'string', maxLength: 3 }, 'long', 'RANGE', 'v must be at most 3 characters long'],
  ['minItems', { type: 'array', minItems: 2 }, '[a]', 'RANGE', 'v must have at least 2 items'],
  ['maxItems', { type: 'array', maxItems: 1 }, '[a, b]', 'RANGE', 'v must have at most 1 item'],
  ['minProperties', { type: 'object', additionalProperties: true, minProperties: 1 }, '{}', 'RANGE', 'v must not be empty'],
  ['maxProperties', { type: 'object', additionalProperties: true, maxProperties: 1 }, '{a: 1, b: 2}', 'RANGE', 'v must have at most 1 key'],
  ['enum', { enum: ['request_body', 'response_body', 'headers'] }, 'body', 'ENUM', 'v must be one of: request_body, response_body, headers'],
  ['const', { const: 'v1' }, 'v2', 'ENUM', 'v must be "v1"'],
  ['pattern', { type: 'string', pattern: '^[a-z]+$' }, 'ABC', 'FORMAT', 'v must match the pattern ^[a-z]+$'],
  ['format', { type: 'string', format: 'uri' }, 'not a uri', 'FORMAT', 'v must be an absolute URI (like https://example.com/path)'],
  ['uniqueItems', { type: 'array', uniqueItems: true }, '[a, b, a]', 'VALUE', 'v must not repeat items (items 0 and 2 are equal)'],
  ['contains', { type: 'array', contains: { const: 'x' } }, '[a]', 'VALUE', 'v must contain at least 1 matching item'],
  ['not', { not: { const: 'root' } }, 'root', 'VALUE', 'v has a value that is not allowed here'],
  ['type list', { type: 'array' }, 'x', 'TYPE', 'v must be a list, got string'],
  ['type mapping', { type: 'object' }, '[1]', 'TYPE', 'v must be a mapping, got list'],
  ['type integer', { type: 'integer' }, '1.5', 'TYPE', 'v must be an integer, got number'],
  ['type null', { type: 'string' }, '~', 'TYPE', 'v must be a string, got null'],
  ['three types', { type: ['string', 'integer', 'boolean'] }, '[]', 'TYPE', 'v must be string, integer or boolean, got list'],
  ['oneOf ambiguity', { oneOf: [{ type: 'integer' }, { minimum: 0 }] }, '5', 'VALUE', 'v matches more than one of the allowed forms; make it match exactly one'],
  ['anyOf of constants', { anyOf: [{ const: 'auto' }, { const: 'off' }] }, 'on', 'ENUM', 'v must be "auto" or "off", got string'],
  ['false schema', { type: 'object', properties: { x: false as unknown as JsonSchema } }, '{x: 1}', 'UNKNOWN_KEY', 'v.x is not allowed here'],
  ['dependentRequired', { type: 'object', properties: { cert: {}, key: {} }, dependentRequired: { cert: ['key'] } }, '{cert: c}', 'REQUIRED', 'missing key v.key, required when v.cert is set'],
  ['propertyNames', { type: 'object', additionalProperties: true, propertyNames: { pattern: '^[a-z]+$' } }, '{Bad: 1}', 'UNKNOWN_KEY', 'v has an invalid key "Bad"'],
  ['a mapping that takes no keys', { type: 'object' }, '{x: 1}', 'UNKNOWN_KEY', 'unknown key v.x; v takes no keys of its own'],
];

for (const [name, schema, value, code, message] of cases) {
  test(`${name}: ${message}`, () => {
    const problem = problemFor(schema, value);
    assert.is(problem.message, message);
    assert.is(problem.code, `VIGIL_ERR_CONFIG_${code}`);
  });
}

test('value problems point at the value, key problems at the key', () => {
  const loaded = loadConfigText('outer:\n  count: 9\n  extra: 1\n', '/srv/vigil.yaml', {});
  const schema: JsonSchema = { type: 'object', properties: { outer: { type: 'object', properties: { count: { type: 'integer', maximum: 3 } } } } };
  try {
    validateSection(loaded, [], schema, loaded.data);
    assert.unreachable();
  } catch (err) {
    const problems = (err as ConfigError).problems;
    assert.equal(problems.map((p) => [p.keyPath, p.line, p.column]), [['outer.count', 2, 10], ['outer.extra', 3, 3]]);
  }
});

test('a quantity out of its bounds is reported at its line, like any schema problem', () => {
  const loaded = loadConfigText('capture:\n  workers: 2\n  batch_delay: 2m\n', '/srv/vigil.yaml', {});
  const delay: JsonSchema = { type: ['string', 'integer'], format: 'duration', formatMinimum: '1ms', formatMaximum: '1m' };
  const schema: JsonSchema = { type: 'object', properties: { capture: { type: 'object', properties: { workers: { type: 'integer' }, batch_delay: delay } } } };
  try {
    validateSection(loaded, [], schema, loaded.data);
    assert.unreachable();
  } catch (err) {
    const problems = (err as ConfigError).problems;
    assert.equal(problems.map((p) => [p.file, p.keyPath, p.line, p.column, p.message]), [['/srv/vigil.yaml', 'capture.batch_delay', 3, 16, 'capture.batch_delay must be ≤ 1m']]);
  }
});

test('a key that needs quoting is quoted in the key path', () => {
  const problem = problemFor({ type: 'object', properties: { 'x.y': { type: 'string' } } }, '{"x.y": 1}');
  assert.is(problem.keyPath, 'v["x.y"]');
});

test.run();
