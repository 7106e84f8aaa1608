import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { coreConfigSchema } from '../../../../runtime/config/core-schema.js';
import { validateSection } from '../../../../runtime/config/validate.js';
import { loadConfigFile } from '../../../../runtime/config/load-yaml.js';
import { inlineConfig } from '../../../../runtime/config/loaded-config.js';
import { ConfigError, type ConfigProblem } from '../../../../runtime/config/errors.js';
import { fixture } from '../../../support/paths.js';

const check = (data: Record<string, unknown>): ConfigProblem[] => {
  try {
    validateSection(inlineConfig(data), [], coreConfigSchema, data);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};
const paths = (data: Record<string, unknown>) => check(data).map((p) => p.keyPath);

test('the sample config with every core key is valid, and keeps what it sets', () => {
  const loaded = loadConfigFile(fixture('config/valid.yaml'), {});
  validateSection(loaded, [], coreConfigSchema, loaded.data);
  const cp = loaded.data.control_plane as Record<string, unknown>;
  assert.equal(cp.lockout, { max_failures: 5, window: '15m' });
  assert.is(cp.body_limit, '2mb');
  assert.is(cp.token, '');
});

test('an empty document gets every default', () => {
  const data: Record<string, unknown> = {};
  validateSection(inlineConfig(data), [], coreConfigSchema, data);
  assert.equal(data, {
    data_dir: './.vigil',
    log: { level: 'info' },
    control_plane: {
      listen: '127.0.0.1:9095', body_limit: '1mb', lockout: { max_failures: 20, window: '10m' }, session: { lifetime: '7d', idle_timeout: '1d' },
      metrics_auth: false,
    },
    storage: {},
    shutdown_timeout: '10s',
    plugins: [],
  });
});

test('listen: host:port, [v6]:port, a port number, or a numeric string', () => {
  for (const listen of ['0.0.0.0:8080', '[::1]:9095', 'localhost:0', 9095, 0, '9095']) {
    assert.equal(paths({ control_plane: { listen } }), [], String(listen));
  }
  for (const listen of ['localhost', '1.2.3.4:99999', 70000, -1, true, 'a b:80']) {
    assert.equal(paths({ control_plane: { listen } }), ['control_plane.listen'], String(listen));
  }
});

test('body_limit and lockout.window take sizes and durations, and reject others', () => {
  assert.equal(paths({ control_plane: { body_limit: 65536, lockout: { window: 600000 } } }), []);
  assert.equal(paths({ control_plane: { body_limit: 'huge', lockout: { window: '10 min' } } }), ['control_plane.body_limit', 'control_plane.lockout.window']);
  assert.equal(paths({ shutdown_timeout: -5 }), ['shutdown_timeout']);
});

test('log.level and log.format are enumerations', () => {
  assert.equal(paths({ log: { level: 'debug', format: 'pretty' } }), []);
  assert.equal(check({ log: { format: 'xml' } }).map((p) => p.message), ['log.format must be one of: json, pretty']);
});

test('tls needs both files when present', () => {
  assert.equal(paths({ control_plane: { tls: { cert_file: 'c.pem', key_file: 'k.pem' } } }), []);
  assert.equal(paths({ control_plane: { tls: { key_file: 'k.pem' } } }), ['control_plane.tls.cert_file']);
  assert.equal(paths({ control_plane: { tls: {} } }), ['control_plane.tls.cert_file', 'control_plane.tls.key_file']);
});

test('storage.url is sqlite: or postgres://', () => {
  assert.equal(paths({ storage: { url: 'postgres://vigil@db:5432/vigil' } }), []);
  assert.equal(paths({ storage: { url: 'redis://x' } }), ['storage.url']);
});

test('plugins: use is required, with takes any keys (checked later against the plugin schema)', () => {
  assert.equal(paths({ plugins: [{ use: 'vigil-plugin-x', with: { anything: { deep: [1] } } }] }), []);
  assert.equal(paths({ plugins: [{ with: {} }] }), ['plugins[0].use']);
  assert.equal(paths({ plugins: [{ use: 'x', width: {} }] }), ['plugins[0].width']);
  assert.equal(paths({ plugins: [{ use: '' }] }), ['plugins[0].use']);
  assert.equal(paths({ plugins: [{ use: 'x', with: 'hi' }] }), ['plugins[0].with']);
});

test('every property is documented, for editors', () => {
  const walk = (schema: Record<string, any>, at: string) => {
    for (const [key, sub] of Object.entries(schema.properties ?? {}) as [string, Record<string, any>][]) {
      assert.type(sub.description, 'string', `${at}${key} has no description`);
      walk(sub, `${at}${key}.`);
    }
    if (schema.items) walk(schema.items, `${at}[].`);
  };
  walk(coreConfigSchema, '');
});

test.run();
