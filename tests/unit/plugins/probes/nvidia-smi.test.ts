// nvidia-smi as a real subprocess: stand-in executables on disk print what the real one prints (its CSV, an error,
// nothing at all for seconds), so the parse, the failure and the timeout are each exercised.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseNvidiaSmi, queryNvidiaSmi } from '../../../../plugins/probes/nvidia-smi.js';
import { tempDir } from '../../../support/tmp.js';

// What nvidia-smi 550 prints for `--query-gpu=index,name,utilization.gpu,memory.used,memory.total,temperature.gpu,
// power.draw,clocks.gr,clocks.max.gr --format=csv,noheader,nounits` on a machine with two cards.
const TWO_CARDS = '0, NVIDIA GeForce RTX 3080, 34, 2210, 10240, 61, 118.52, 1710, 2100\n1, Tesla T4, [N/A], 0, 15360, 38, [Not Supported], 300, 1590\n';

const dir = tempDir('vigil-nvidia-smi-');
function fake(name: string, script: string): string {
  const path = join(dir.path, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

test('its CSV: MiB as bytes, [N/A] and [Not Supported] as null', () => {
  const [a, b] = parseNvidiaSmi(TWO_CARDS);
  assert.equal(a, {
    id: 'nvidia0', vendor: 'nvidia', source: 'nvidia-smi', name: 'NVIDIA GeForce RTX 3080', busy_percent: 34,
    vram_used_bytes: 2210 * 1048576, vram_total_bytes: 10240 * 1048576, celsius: 61, power_w: 118.52, freq_mhz: 1710, max_freq_mhz: 2100,
  });
  assert.is(b.busy_percent, null);
  assert.is(b.power_w, null);
  assert.is(b.name, 'Tesla T4');
  assert.equal(parseNvidiaSmi('NVIDIA-SMI has failed because it couldn\'t communicate with the NVIDIA driver.\n'), []);
});

test('run with fixed arguments and no shell: the query it asks is the one parsed', async () => {
  // The stand-in answers only when asked exactly the fields the parser reads.
  const path = fake('nvidia-smi-ok', `[ "$1" = "--query-gpu=index,name,utilization.gpu,memory.used,memory.total,temperature.gpu,power.draw,clocks.gr,clocks.max.gr" ] && [ "$2" = "--format=csv,noheader,nounits" ] || exit 3
printf '${TWO_CARDS.replaceAll('\n', '\\n')}'`);
  const gpus = await queryNvidiaSmi(path);
  assert.equal(gpus.map((g) => g.id), ['nvidia0', 'nvidia1']);
});

test('a failing nvidia-smi rejects with VIGIL_ERR_PROBES_NVIDIA_SMI; a hung one is killed at the timeout', async () => {
  const failing = fake('nvidia-smi-fail', 'echo "Failed to initialize NVML: Driver/library version mismatch" >&2; exit 9');
  const err = await queryNvidiaSmi(failing).then(() => undefined, (e: Error & { code?: string }) => e);
  assert.is(err?.code, 'VIGIL_ERR_PROBES_NVIDIA_SMI');
  const hung = fake('nvidia-smi-hung', 'exec sleep 10');
  const t0 = Date.now();
  const late = await queryNvidiaSmi(hung, 300).then(() => undefined, (e: Error & { code?: string }) => e);
  assert.is(late?.code, 'VIGIL_ERR_PROBES_NVIDIA_SMI');
  assert.match(late!.message, /no answer within 300 ms/);
  assert.ok(Date.now() - t0 < 2000, `gave up after ${Date.now() - t0} ms`);
  const silent = fake('nvidia-smi-empty', 'exit 0');
  assert.match((await queryNvidiaSmi(silent).catch((e: Error) => e) as Error).message, /no GPU/);
});

test.after(() => dir.cleanup());
test.run();
