// The probes plugin without the alerts plugin: the health score answers, and the rule routes say which plugin to turn
// on instead of failing obscurely.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';

let rt: TestRuntime;
test.before(async () => { rt = await startTestRuntime({ plugins: [], config: { probes: {} } }); });
test.after(async () => { await rt?.stop(); });

test('no alerts plugin: /api/monitor and /api/customrules answer 409 naming it; /api/healthscore works', async () => {
  for (const [method, path, body] of [['GET', '/api/monitor?brief=1'], ['POST', '/api/customrules', { rules: [] }], ['POST', '/api/monitor', {}]] as const) {
    const res = await rt.fetch(path, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const answer = await res.json() as { error: { code: string; message: string } };
    assert.is(res.status, 409, path);
    assert.is(answer.error.code, 'VIGIL_ERR_HOST_RULES_NO_ALERTS');
    assert.match(answer.error.message, 'alerts: {}');
  }
  const health = await rt.fetch('/api/healthscore');
  assert.is(health.status, 200);
  const custom = await rt.fetch('/api/customtest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rule: { name: 'x', kind: 'port', target: '1' } }) });
  assert.is(custom.status, 200, 'a test needs no engine');
});

test.run();
