// Benchmark: the answer time of `GET /api/containers` while one environment's daemon accepts connections and never
// answers, against the configured per-environment timeout. The promise of the panel is that a hung daemon costs its
// own row and no more: the answer should come at the timeout (plus the time to merge), whatever hangs.
//
// Baseline, same run, rounds alternated: the same list with the hung daemon left out (Docker's fake and the fake
// cluster only), which shows what the healthy environments cost on their own. Both are in-process, over the real
// unix socket and loopback HTTP of tests/support/fake-container-engines.ts.
//
// Usage: node dist/bench/containers-unreachable.js [rounds, default 10] [timeout ms, default 500]
import { join } from 'node:path';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';
import { startFakeDocker, startFakeKube, startHungSocket } from '../tests/support/fake-container-engines.js';
import { tempDir } from '../tests/support/tmp.js';
import { median } from './support/median.js';

const ROUNDS = Number(process.argv[2] ?? 10);
const TIMEOUT_MS = Number(process.argv[3] ?? 500);
const WARMUP = 2;

const dir = tempDir('vigil-bench-ctr-');
const docker = await startFakeDocker(join(dir.path, 'docker.sock'));
const hung = await startHungSocket(join(dir.path, 'podman.sock'));
const kube = await startFakeKube(join(dir.path, 'kubeconfig'));
const none = join(dir.path, 'none.sock');
const section = (podman: string) => ({
  sockets: { docker: docker.socketPath, podman, lxd: none, incus: none }, kubeconfig: kube.kubeconfig, nerdctl: join(dir.path, 'no-nerdctl'), timeout: TIMEOUT_MS,
});
const withHung = await startTestRuntime({ plugins: [], config: { data_dir: join(dir.path, 'a'), containers: section(hung.socketPath) } });
const healthy = await startTestRuntime({ plugins: [], config: { data_dir: join(dir.path, 'b'), containers: section(none) } });

const timedList = async (rt: typeof withHung, expectHung: boolean): Promise<number> => {
  const t = performance.now();
  const res = await rt.fetch('/api/containers');
  const body = await res.json() as { environments: { kind: string; state: string }[] };
  const ms = performance.now() - t;
  const podman = body.environments.find((e) => e.kind === 'podman');
  if (res.status !== 200 || (expectHung ? podman?.state !== 'unreachable' : podman !== undefined)) throw new Error(`unexpected answer: ${JSON.stringify(body.environments)}`);
  return ms;
};

try {
  const hungMs: number[] = [];
  const baseMs: number[] = [];
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    const a = await timedList(withHung, true);
    const b = await timedList(healthy, false);
    if (r >= WARMUP) { hungMs.push(a); baseMs.push(b); }
  }
  const m = median(hungMs);
  const worst = Math.max(...hungMs);
  console.log(`containers-unreachable answer with a hung daemon: ${m.toFixed(1)} ms median, ${worst.toFixed(1)} ms worst (ratio ${(m / TIMEOUT_MS).toFixed(3)} vs the ${TIMEOUT_MS} ms timeout; worst ${(worst / TIMEOUT_MS).toFixed(3)})`);
  console.log(`containers-unreachable answer without it: ${median(baseMs).toFixed(1)} ms median (the healthy environments alone; hung minus healthy ${(m - median(baseMs)).toFixed(1)} ms)`);
} finally {
  await withHung.stop();
  await healthy.stop();
  await docker.close();
  await hung.close();
  await kube.close();
  dir.cleanup();
}
