import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { JsonSchema } from '@vigil/plugin-sdk';
import { composeSchema } from '../../../../runtime/config/compose-schema.js';
import { coreConfigSchema } from '../../../../runtime/config/core-schema.js';
import { validateSection } from '../../../../runtime/config/validate.js';
import { inlineConfig } from '../../../../runtime/config/loaded-config.js';
import { ConfigError, ConfigSchemaError } from '../../../../runtime/config/errors.js';

const proxy: JsonSchema = { type: 'object', properties: { listen: { type: 'integer' }, upstream: { type: 'string' } } };

const problemPaths = (schema: JsonSchema, data: Record<string, unknown>): string[] => {
  try {
    validateSection(inlineConfig(data), [], schema, data);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.map((p) => p.keyPath);
    throw err;
  }
};

test('the composed schema has the dialect, a title, core keys and one key per built-in section', () => {
  const schema = composeSchema(coreConfigSchema, [{ key: 'service', schema: proxy, description: 'The reverse proxy.' }]);
  assert.is(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.is(schema.title, 'Vigil configuration');
  assert.ok(schema.properties!.control_plane);
  assert.ok(schema.properties!.plugins);
  assert.is(schema.properties!.service.description, 'The reverse proxy.');
  assert.is(schema.additionalProperties, false);
});

test('built-in sections are made strict', () => {
  const schema = composeSchema(coreConfigSchema, [{ key: 'service', schema: proxy }]);
  assert.is(schema.properties!.service.additionalProperties, false);
  assert.equal(problemPaths(schema, { service: { listen: 8080, upstrem: 'x' } }), ['service.upstrem']);
  assert.equal(problemPaths(schema, { service: { listen: 8080 } }), []);
});

test('an unknown top-level key is rejected; a section key is accepted only once composed', () => {
  assert.equal(problemPaths(composeSchema(coreConfigSchema, []), { service: {} }), ['service']);
});

test('a section key that is a core key, or taken twice, is a schema error', () => {
  assert.throws(() => composeSchema(coreConfigSchema, [{ key: 'storage', schema: proxy }]), (e: unknown) => e instanceof ConfigSchemaError && /core key/.test(e.message));
  assert.throws(
    () => composeSchema(coreConfigSchema, [{ key: 'a', schema: proxy }, { key: 'a', schema: proxy }]),
    (e: unknown) => e instanceof ConfigSchemaError && /another built-in/.test(e.message),
  );
});

test('local $refs of a section keep pointing at its own $defs', () => {
  const section: JsonSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { channels: { type: 'array', items: { $ref: '#/$defs/channel' } } },
    $defs: { channel: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } } },
  };
  const schema = composeSchema(coreConfigSchema, [{ key: 'alerts', schema: section }]);
  assert.is((schema.properties!.alerts.properties!.channels.items as JsonSchema).$ref, '#/properties/alerts/$defs/channel');
  assert.is(schema.properties!.alerts.$schema, undefined);
  assert.equal(problemPaths(schema, { alerts: { channels: [{ url: 'u' }] } }), []);
  assert.equal(problemPaths(schema, { alerts: { channels: [{ ur: 'u' }] } }), ['alerts.channels[0].url', 'alerts.channels[0].ur']);
});

test('the inputs are not modified', () => {
  const before = JSON.stringify(coreConfigSchema);
  const section = structuredClone(proxy);
  composeSchema(coreConfigSchema, [{ key: 'service', schema: section }]);
  assert.is(JSON.stringify(coreConfigSchema), before);
  assert.equal(section, proxy);
});

test.run();
