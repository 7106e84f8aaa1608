import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { JsonSchema } from '@vigil/plugin-sdk';
import { validateSection } from '../../../../runtime/config/validate.js';
import { loadConfigFile, loadConfigText } from '../../../../runtime/config/load-yaml.js';
import { inlineConfig } from '../../../../runtime/config/loaded-config.js';
import { coreConfigSchema } from '../../../../runtime/config/core-schema.js';
import { composeSchema } from '../../../../runtime/config/compose-schema.js';
import { ConfigError, ConfigSchemaError, type ConfigProblem } from '../../../../runtime/config/errors.js';
import { formatConfigError } from '../../../../runtime/config/format-problem.js';
import { fixture } from '../../../support/paths.js';

// A gateway-like built-in section, deep enough to put keys at depth 4 inside lists.
const gatewaySchema: JsonSchema = {
  type: 'object',
  required: ['upstream'],
  properties: {
    upstream: { type: 'string', format: 'uri' },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        required: ['match'],
        properties: {
          match: { type: 'string' },
          capture: { type: 'boolean' },
          sample: { type: 'number', minimum: 0, maximum: 1 },
          redact: {
            type: 'object',
            properties: {
              json_fields: { type: 'array', items: { type: 'string' } },
              headers: { type: 'array', items: { type: 'string' } },
              targets: { type: 'array', items: { enum: ['request_body', 'response_body', 'headers'] } },
            },
          },
        },
      },
    },
  },
};
const fullSchema = composeSchema(coreConfigSchema, [{ key: 'gateway', schema: gatewaySchema }]);

function problemsOf(run: () => unknown): ConfigProblem[] {
  try {
    run();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems;
  }
  assert.unreachable('expected a ConfigError');
  return [];
}

const validateText = (text: string, schema: JsonSchema = fullSchema) => {
  const loaded = loadConfigText(text, '/srv/vigil.yaml', {});
  return problemsOf(() => validateSection(loaded, [], schema, loaded.data));
};

test('a misspelt nested key: line, column, key path and suggestion', () => {
  const loaded = loadConfigFile(fixture('config/gateway-misspelt.yaml'), {});
  const problems = problemsOf(() => validateSection(loaded, [], fullSchema, loaded.data));
  assert.is(problems.length, 1);
  const [p] = problems;
  assert.is(p.code, 'VIGIL_ERR_CONFIG_UNKNOWN_KEY');
  assert.is(p.file, fixture('config/gateway-misspelt.yaml'));
  assert.equal([p.line, p.column], [13, 9]);
  assert.is(p.keyPath, 'gateway.rules[2].redact.json_feilds');
  assert.is(p.suggestion, 'json_fields');
  assert.is(
    formatConfigError(new ConfigError(problems), { cwd: fixture('config') }),
    'gateway-misspelt.yaml:13:9: unknown key gateway.rules[2].redact.json_feilds (did you mean json_fields?)',
  );
});

test('an unknown top-level key points at the key and suggests the core key', () => {
  const [p] = validateText('control_plane:\n  listen: 9095\ncontorl_plane: {}\n');
  assert.equal([p.code, p.line, p.column, p.keyPath, p.suggestion], ['VIGIL_ERR_CONFIG_UNKNOWN_KEY', 3, 1, 'contorl_plane', 'control_plane']);
});

test('an unknown key with nothing close lists the allowed keys instead', () => {
  const [p] = validateText('log:\n  colour: red\n');
  assert.is(p.suggestion, undefined);
  assert.is(p.message, 'unknown key log.colour; allowed here: level, format');
});

test('an unknown key inside a list item inside a list item (depth 5)', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { jobs: { type: 'array', items: { type: 'object', properties: { steps: { type: 'array', items: { type: 'object', properties: { run: { type: 'string' } } } } } } } },
  };
  const [p] = validateText('jobs:\n  - steps:\n      - run: a\n      - run: b\n        rnu: c\n', schema);
  assert.is(p.keyPath, 'jobs[0].steps[1].rnu');
  assert.equal([p.line, p.column], [5, 9]);
  assert.is(p.suggestion, 'run');
});

test('a wrong type points at the value and names both types', () => {
  const [p] = validateText('control_plane:\n  listen: true\n');
  assert.equal([p.code, p.line, p.column, p.keyPath], ['VIGIL_ERR_CONFIG_TYPE', 2, 11, 'control_plane.listen']);
  assert.is(p.message, 'control_plane.listen must be string or integer, got boolean');
});

test('a wrong single type reads "must be a …" and never echoes the value', () => {
  const [p] = validateText('control_plane:\n  token: 123456789\n');
  assert.is(p.message, 'control_plane.token must be a string, got integer');
  assert.not.match(p.message, '123456789');
});

test('a missing required key points at its parent mapping', () => {
  const [p] = validateText('control_plane:\n  tls:\n    cert_file: cert.pem\n');
  assert.equal([p.code, p.line, p.column, p.keyPath], ['VIGIL_ERR_CONFIG_REQUIRED', 2, 3, 'control_plane.tls.key_file']);
  assert.is(p.message, 'missing required key control_plane.tls.key_file');
});

test('a missing required key in a list item points at the item', () => {
  const [p] = validateText('gateway:\n  upstream: http://u\n  rules:\n    - capture: true\n');
  assert.equal([p.line, p.column, p.keyPath], [4, 7, 'gateway.rules[0].match']);
});

test('a value above its maximum', () => {
  const [p] = validateText('gateway:\n  upstream: http://u\n  rules:\n    - match: /a\n      sample: 1.5\n');
  assert.equal([p.code, p.line, p.column, p.keyPath], ['VIGIL_ERR_CONFIG_RANGE', 5, 15, 'gateway.rules[0].sample']);
  assert.is(p.message, 'gateway.rules[0].sample must be ≤ 1');
});

test('a value outside an enum lists the allowed values', () => {
  const [p] = validateText('gateway:\n  upstream: http://u\n  rules:\n    - match: /a\n      redact:\n        targets: [headers, bodies]\n');
  assert.equal([p.code, p.keyPath, p.line, p.column], ['VIGIL_ERR_CONFIG_ENUM', 'gateway.rules[0].redact.targets[1]', 6, 28]);
  assert.is(p.message, 'gateway.rules[0].redact.targets[1] must be one of: request_body, response_body, headers');
});

test('an enum value close to an allowed one gets a suggestion', () => {
  const [p] = validateText('log:\n  level: warning\n');
  assert.is(p.suggestion, undefined, '"warning" is 3 edits from "warn"');
  const [q] = validateText('log:\n  level: inof\n');
  assert.is(q.suggestion, 'info');
});

test('several problems are all reported, sorted by position', () => {
  const loaded = loadConfigFile(fixture('config/several-problems.yaml'), {});
  const problems = problemsOf(() => validateSection(loaded, [], fullSchema, loaded.data));
  assert.equal(problems.map((p) => [p.line, p.code, p.keyPath]), [
    [2, 'VIGIL_ERR_CONFIG_TYPE', 'control_plane.listen'],
    [4, 'VIGIL_ERR_CONFIG_RANGE', 'control_plane.lockout.max_failures'],
    [5, 'VIGIL_ERR_CONFIG_REQUIRED', 'control_plane.tls.key_file'],
    [8, 'VIGIL_ERR_CONFIG_ENUM', 'log.level'],
    [9, 'VIGIL_ERR_CONFIG_FORMAT', 'shutdown_timeout'],
    [11, 'VIGIL_ERR_CONFIG_UNKNOWN_KEY', 'storage.uri'],
  ]);
  assert.is(problems[5].suggestion, 'url');
});

test('defaults are filled into the data in place', () => {
  const loaded = loadConfigFile(fixture('config/minimal.yaml'), {});
  const result = validateSection(loaded, [], fullSchema, loaded.data);
  assert.is(result, loaded.data);
  assert.equal(loaded.data, {
    data_dir: './.vigil',
    log: { level: 'info' },
    control_plane: {
      listen: 9095, body_limit: '1mb', lockout: { max_failures: 20, window: '10m' }, session: { lifetime: '7d', idle_timeout: '1d' }, metrics_auth: false,
    },
    storage: {},
    shutdown_timeout: '10s',
    plugins: [],
  });
});

const helloSchema: JsonSchema = {
  type: 'object',
  properties: {
    greeting: { type: 'string', default: 'hello' },
    times: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
  },
};

test('a plugin section: problems carry the full key path and the file position', () => {
  const loaded = loadConfigFile(fixture('config/hello-plugin.yaml'), {});
  validateSection(loaded, [], fullSchema, loaded.data);
  const plugins = loaded.data.plugins as { with?: unknown }[];
  const problems = problemsOf(() => validateSection(loaded, ['plugins', 1, 'with'], helloSchema, plugins[1].with));
  assert.equal(problems.map((p) => [p.keyPath, p.line, p.column, p.code]), [
    ['plugins[1].with.greting', 5, 7, 'VIGIL_ERR_CONFIG_UNKNOWN_KEY'],
    ['plugins[1].with.times', 6, 14, 'VIGIL_ERR_CONFIG_RANGE'],
  ]);
  assert.is(problems[0].suggestion, 'greeting');
});

test('an absent plugin section is validated as {} and gets its defaults', () => {
  const loaded = loadConfigFile(fixture('config/hello-plugin.yaml'), {});
  const plugins = loaded.data.plugins as { with?: unknown }[];
  assert.equal(validateSection(loaded, ['plugins', 2, 'with'], helloSchema, plugins[2].with), { greeting: 'hello', times: 1 });
  const required: JsonSchema = { type: 'object', required: ['greeting'], properties: { greeting: { type: 'string' } } };
  const [p] = problemsOf(() => validateSection(loaded, ['plugins', 0, 'with'], required, undefined));
  assert.equal([p.keyPath, p.line, p.column], ['plugins[0].with.greeting', 2, 5]);
});

test('anyOf: a value of a kind no branch takes gets one summary, not one error per branch', () => {
  const schema: JsonSchema = { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'object', properties: { a: {} } }, { const: 0 }] } } };
  const problems = validateText('v: true\n', schema);
  assert.is(problems.length, 1);
  assert.is(problems[0].message, 'v must be string, mapping or 0, got boolean');
});

test('anyOf: the branch that fits the value is the one reported', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { v: { anyOf: [{ type: 'string' }, { type: 'object', properties: { path: { type: 'string' }, mode: { enum: ['r', 'w'] } } }] } },
  };
  const problems = validateText('v:\n  pth: x\n  mode: rw\n', schema);
  assert.equal(problems.map((p) => [p.keyPath, p.code]), [['v.pth', 'VIGIL_ERR_CONFIG_UNKNOWN_KEY'], ['v.mode', 'VIGIL_ERR_CONFIG_ENUM']]);
  assert.is(problems[0].suggestion, 'path');
});

test('oneOf with a tag key: an unknown tag lists the tags once', () => {
  const exporter = (kind: string, extra: Record<string, JsonSchema>): JsonSchema =>
    ({ type: 'object', required: ['kind'], properties: { kind: { const: kind }, ...extra } });
  const schema: JsonSchema = {
    type: 'object',
    properties: { exporters: { type: 'array', items: { oneOf: [exporter('file', { path: { type: 'string' } }), exporter('webhook', { url: { type: 'string' } })] } } },
  };
  const [tag] = validateText('exporters:\n  - kind: kafka\n    topic: t\n', schema);
  assert.equal([tag.keyPath, tag.message, tag.line, tag.column], ['exporters[0].kind', 'exporters[0].kind must be one of: file, webhook', 2, 11]);
  const wrongField = validateText('exporters:\n  - kind: webhook\n    uri: http://x\n', schema);
  assert.equal(wrongField.map((p) => [p.keyPath, p.suggestion]), [['exporters[0].uri', 'url']]);
});

test('durations and sizes in a schema: good values pass, bad ones name the expected form', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      every: { type: ['string', 'integer'], format: 'duration' },
      max: { type: ['string', 'integer'], format: 'byte-size' },
    },
  };
  const good = loadConfigText('every: 30s\nmax: 64kb\n', '/srv/vigil.yaml', {});
  assert.equal(validateSection(good, [], schema, good.data), { every: '30s', max: '64kb' });
  const numbers = loadConfigText('every: 500\nmax: 1024\n', '/srv/vigil.yaml', {});
  assert.equal(validateSection(numbers, [], schema, numbers.data), { every: 500, max: 1024 });
  const problems = validateText('every: 30 seconds\nmax: 1 megabyte\n', schema);
  assert.equal(problems.map((p) => [p.code, p.keyPath, p.line]), [
    ['VIGIL_ERR_CONFIG_FORMAT', 'every', 1],
    ['VIGIL_ERR_CONFIG_FORMAT', 'max', 2],
  ]);
  assert.match(problems[0].message, 'every must be a duration like 500ms');
  assert.match(problems[1].message, 'max must be a size like 512, 64kb');
});

test('a schema Ajv cannot compile is a ConfigSchemaError naming the section, not a ConfigError', () => {
  const loaded = inlineConfig({ plugins: [{ use: 'x', with: { a: 1 } }] });
  const bad: JsonSchema = { type: 'object', properties: { a: { type: 'string', format: 'no-such-format' } } };
  try {
    validateSection(loaded, ['plugins', 0, 'with'], bad, { a: 'x' });
    assert.unreachable('expected a ConfigSchemaError');
  } catch (err) {
    assert.instance(err, ConfigSchemaError);
    assert.is((err as ConfigSchemaError).code, 'VIGIL_ERR_CONFIG_SCHEMA');
    assert.match((err as Error).message, 'plugins[0].with');
  }
});

test('a draft-07 $schema is accepted', () => {
  const schema: JsonSchema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } } };
  const loaded = inlineConfig({ a: 'x' });
  assert.equal(validateSection(loaded, [], schema, loaded.data), { a: 'x' });
  assert.is(problemsOf(() => validateSection(loaded, [], schema, { b: 1 }))[0].keyPath, 'b');
});

test('config that did not come from a file: problems have line 0 and name the source', () => {
  const loaded = inlineConfig({ greting: 'x' }, 'hello-plugin test config');
  const [p] = problemsOf(() => validateSection(loaded, [], helloSchema, loaded.data));
  assert.equal([p.file, p.line, p.column, p.keyPath, p.suggestion], ['hello-plugin test config', 0, 0, 'greting', 'greeting']);
  assert.is(formatConfigError(new ConfigError([p])), 'hello-plugin test config: unknown key greting (did you mean greeting?)');
});

test('a problem on a value filled in by a default points at the nearest key in the file', () => {
  const schema: JsonSchema = { type: 'object', properties: { a: { type: 'object', default: {}, required: ['must'], properties: { must: {} } } } };
  const [p] = validateText('other: 1\n', { ...schema, additionalProperties: true });
  assert.equal([p.keyPath, p.line, p.column], ['a.must', 1, 1]);
});

test.run();
