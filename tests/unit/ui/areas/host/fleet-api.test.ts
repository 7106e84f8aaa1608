// The Fleet page's empty state shows a config for the machine to add: pasted as it is, `vigil validate` accepts it
// and it turns the fleet on. And the grid's figures: a dash for what a machine cannot tell, tones at 75 and 90 %.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadTone, PEER_SNIPPET, percent } from '../../../../../ui/src/areas/host/fleet-api.js';
import { tempDir } from '../../../../support/tmp.js';
import { runVigil } from '../../../../support/vigil-process.js';

test('the snippet for the other machine passes vigil validate and turns the fleet on', async () => {
  const dir = tempDir();
  try {
    const file = join(dir.path, 'vigil.yaml');
    writeFileSync(file, `data_dir: ${join(dir.path, 'data')}\n${PEER_SNIPPET}\n`);
    const r = await runVigil(['validate', '-config', file]);
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /\bfleet\b/);
  } finally {
    dir.cleanup();
  }
});

test('figures: a dash when unknown, whole percents, tones from 75 and 90', () => {
  assert.is(percent(null), '—');
  assert.is(percent(41.6), '42\u00a0%');
  assert.equal([null, 10, 74.9, 75, 89.9, 90].map(loadTone), ['neutral', 'success', 'success', 'warning', 'warning', 'danger']);
});

test.run();
