// The middleware reads its config file with vigil run's loader and checks: problems come with file:line:column.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadMiddlewarePolicy } from '../../../middleware/core/load-policy.js';
import { resolveOptions } from '../../../middleware/core/options.js';
import { MiddlewareError } from '../../../middleware/core/errors.js';
import { tempDir } from '../../support/tmp.js';

const dir = tempDir('vigil-mw-policy-');
const file = (name: string, text: string) => { const p = join(dir.path, name); writeFileSync(p, text); return p; };
const fails = (fn: () => unknown): MiddlewareError => {
  try { fn(); } catch (err) { assert.instance(err, MiddlewareError); return err as MiddlewareError; }
  throw new Error('did not throw');
};

test('rules decide as the gateway does, and capture.max_body_bytes bounds the copies', () => {
  const p = loadMiddlewarePolicy(file('ok.yaml', 'service: { upstream: "http://127.0.0.1:1" }\ncapture: { max_body_bytes: 4kb }\nrules:\n  - name: admin\n    match: { path: /admin/** }\n    restrict: [headers]\n'));
  assert.is(p.maxBodyBytes, 4096);
  assert.is(p.compiled.decide('GET', '/ADMIN/x?y=1').captureHeaders, false);
  assert.equal(p.telemetry.rules?.length, 1);
  assert.is(loadMiddlewarePolicy(file('default.yaml', 'rules: []\n')).maxBodyBytes, 1024 * 1024);
});

test('a schema problem names the file, line and key path', () => {
  const err = fails(() => loadMiddlewarePolicy(file('bad.yaml', 'rules:\n  - name: a\n    match: { path: /x }\n    redact: { headerz: [A] }\n')));
  assert.is(err.code, 'VIGIL_ERR_MIDDLEWARE_CONFIG');
  assert.match(err.message, /bad\.yaml:4:\d+/);
  assert.match(err.message, /headerz/);
});

test('a problem only compiling finds (a bad JSON path) is placed too', () => {
  const err = fails(() => loadMiddlewarePolicy(file('path.yaml', 'rules:\n  - name: a\n    match: { path: /x }\n    redact: { json_fields: ["$..["] }\n')));
  assert.match(err.message, /path\.yaml:\d+:\d+: rules\[0\]/);
});

test('no rules key, a missing file, and bad options are refused with what to do', () => {
  assert.match(fails(() => loadMiddlewarePolicy(file('none.yaml', 'capture: {}\n'))).message, /no "rules" key/);
  assert.match(fails(() => loadMiddlewarePolicy(join(dir.path, 'missing.yaml'))).message, /missing\.yaml/);
  const opts = { configPath: 'x.yaml', agentUrl: 'http://h:1/base/', token: 't', env: {} };
  assert.is(resolveOptions(opts).ingestUrl, 'http://h:1/base/api/gateway/records');
  assert.is(fails(() => resolveOptions({ ...opts, token: undefined })).code, 'VIGIL_ERR_MIDDLEWARE_OPTIONS');
  assert.match(fails(() => resolveOptions({ ...opts, agentUrl: 'ftp://h' })).message, /http or https/);
  assert.match(fails(() => resolveOptions({ ...opts, batchSize: 0 })).message, /batchSize/);
  assert.is(resolveOptions({ configPath: 'x', env: { VIGIL_AGENT_URL: 'http://a:2', VIGIL_INGEST_TOKEN: 'k' } }).token, 'k');
});

test.after(() => dir.cleanup());
test.run();
