import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { alternativesKeyword, reduceAjvErrors } from '../../../../runtime/config/reduce-ajv-error-list.js';

const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false });
const errorsOf = (schema: object, data: unknown) => {
  const validate = ajv.compile(schema);
  assert.not.ok(validate(data), 'the data was meant to be invalid');
  return validate.errors!;
};
const summary = (errors: ReturnType<typeof reduceAjvErrors>) => errors.map((e) => `${e.keyword} ${e.instancePath}`);

test('anyOf of types: one alternatives error replaces one error per branch plus the anyOf', () => {
  const raw = errorsOf({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, true);
  assert.is(raw.length, 3);
  const reduced = reduceAjvErrors(raw);
  assert.equal(summary(reduced), [`${alternativesKeyword} `]);
  assert.equal(reduced[0].params.expected, [{ type: 'string' }, { type: 'integer' }]);
});

test('the branch whose type fits is kept, alone', () => {
  const schema = { anyOf: [{ type: 'string' }, { type: 'object', properties: { a: { type: 'integer' } } }] };
  assert.equal(summary(reduceAjvErrors(errorsOf(schema, { a: 'x' }))), ['type /a']);
});

test('among fitting branches, the one with the fewest errors wins', () => {
  const schema = {
    oneOf: [
      { type: 'object', required: ['a', 'c', 'd'] },
      { type: 'object', required: ['a', 'x'] },
    ],
  };
  const reduced = reduceAjvErrors(errorsOf(schema, { a: 1, b: 2 }));
  assert.equal(reduced.map((e) => e.params.missingProperty), ['x']);
});

test('nested composites are reduced from the inside out', () => {
  const schema = {
    type: 'object',
    properties: { v: { anyOf: [{ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'boolean' }] } }, { type: 'string' }] } },
  };
  const reduced = reduceAjvErrors(errorsOf(schema, { v: ['ok', 5] }));
  assert.equal(summary(reduced), [`${alternativesKeyword} /v/1`]);
});

test('tagged branches that all reject the tag become one enum of the tags', () => {
  const branch = (kind: string) => ({ type: 'object', properties: { kind: { const: kind }, [`${kind}_opt`]: {} } });
  const reduced = reduceAjvErrors(errorsOf({ oneOf: [branch('a'), branch('b')] }, { kind: 'c' }));
  assert.equal(summary(reduced), ['enum /kind']);
  assert.equal(reduced[0].params.allowedValues, ['a', 'b']);
});

test('an "if" error is dropped; the "then" error stays', () => {
  const schema = { if: { properties: { tls: { const: true } } }, then: { required: ['cert'] } };
  assert.equal(summary(reduceAjvErrors(errorsOf(schema, { tls: true }))), ['required ']);
});

test('a oneOf that matches several branches stays, as its own error', () => {
  const reduced = reduceAjvErrors(errorsOf({ oneOf: [{ type: 'integer' }, { minimum: 0 }] }, 5));
  assert.equal(summary(reduced), ['oneOf ']);
});

test('errors unrelated to composites pass through untouched', () => {
  const raw = errorsOf({ type: 'object', properties: { a: { type: 'string' }, b: { maximum: 1 } } }, { a: 1, b: 2 });
  assert.equal(reduceAjvErrors(raw), raw);
});

test.run();
