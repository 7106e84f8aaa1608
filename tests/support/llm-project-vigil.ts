// A real `vigil run` with the llm plugin and one project made with `vigil project create`, for the clients' end-to-end
// tests: they send traces with the project's key and read them back through the public API, `/api/v1/traces`.
import * as assert from 'uvu/assert';
import { freePort, waitFor } from './net.js';
import { runVigil, startVigil, writeConfig, type VigilProcess } from './vigil-process.js';

type Json = Record<string, any>;

export interface LlmProjectVigil {
  base: string;
  key: string;
  vigil: VigilProcess;
  /** Every stored trace with `tag` once there are `count` of them (waits up to 15 s). */
  tracesTagged(tag: string, count: number): Promise<Json[]>;
}

export async function startLlmProjectVigil(dir: string, project: string): Promise<LlmProjectVigil> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const file = writeConfig(dir, `data_dir: ${dir}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${project}-token }
llm: {}
`);
  const created = await runVigil(['project', 'create', project, '-config', file], { cwd: dir });
  assert.is(created.code, 0, created.stderr);
  const key = created.stdout.trim().split('\n').at(-1)!;
  assert.match(key, /^vk_[\w-]{43}$/);
  // A start competes with the toolchains (go build, javac) of the same run for two cores: give it a minute.
  const vigil = await startVigil(file, base, { cwd: dir, timeoutMs: 60_000 });
  return {
    base,
    key,
    vigil,
    async tracesTagged(tag, count) {
      let last: Json[] = [];
      const found = await waitFor(async () => {
        const res = await fetch(`${base}/api/v1/traces?tag=${encodeURIComponent(tag)}&limit=200`, { headers: { 'x-service-project-key': key } });
        assert.is(res.status, 200);
        last = ((await res.json()) as { data: Json[] }).data;
        return last.length >= count ? last : undefined;
      }, { timeoutMs: 15_000, what: `${count} traces tagged ${tag} (have ${last.length})` });
      return found!;
    },
  };
}
