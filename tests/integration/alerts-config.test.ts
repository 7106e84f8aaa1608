// The alerts section is checked before anything starts: the tick may be shortened (tests, small setups) down to one
// second, not below; digest channels take ids or `all`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../support/tmp.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const work = tempDir('vigil-alerts-config-');
test.after(() => work.cleanup());

const validate = async (alerts: string) => {
  const file = writeConfig(work.path, `data_dir: ${work.path}/data\nllm: {}\nalerts:\n${alerts}`, 'vigil.yaml');
  return runVigil(['validate', '-config', file], { cwd: work.path });
};

test('an interval of 1s and digest channels pass', async () => {
  const r = await validate('  interval: 1s\n  digests: { channels: [ops] }\n');
  assert.is(r.code, 0, r.stderr);
});

test('an interval under 1s is refused with its key', async () => {
  const r = await validate('  interval: 500ms\n');
  assert.is(r.code, 2, r.stdout);
  assert.match(r.stderr, /alerts\.interval: "500ms" is under the minimum of 1s/);
});

test('digest channels of another shape are refused', async () => {
  const r = await validate('  digests: { channels: ops }\n');
  assert.is(r.code, 2, r.stdout);
  assert.match(r.stderr, /alerts\.digests\.channels/);
});

test.run();
