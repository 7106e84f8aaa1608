// Issue 30 (1.21): a rotated key still worked 2 s after its grace period ended, because the key cache trusted a
// found key for 60 s whatever its `expires_at`. Rotated with a 2 s grace, the old key works until the end of the
// grace and is refused from then on: in the process that rotated it, and (PostgreSQL) in a second process that had
// the key cached from before the rotation.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { llmClient } from '../support/llm-client.js';
import { freePort } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'key-grace-token';
/** How late after the end of the grace the first refusal may be (the polling step is 20 ms). */
const REFUSED_WITHIN_MS = 200;

interface Poll { sentAt: number; status: number }

/** Polls `base` with `key` every 20 ms until it is refused or `deadline` passes; every answer, in order. */
async function pollUntilRefused(base: string, key: string, deadline: number): Promise<Poll[]> {
  const polls: Poll[] = [];
  while (Date.now() < deadline) {
    const sentAt = Date.now();
    const { status } = await llmClient(base).get(key, '/api/v1/traces?limit=1');
    polls.push({ sentAt, status });
    if (status !== 200) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return polls;
}

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<{ bases: string[]; procs: VigilProcess[] }>(`llm key grace (${backend})`);
  const work = tempDir('vigil-key-grace-');
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;

  test.before(async (ctx) => {
    ctx.bases = [];
    ctx.procs = [];
    if (backend === 'postgres') schema = await freshPostgresSchema('llm_key_grace');
    for (let i = 0; i < (schema ? 2 : 1); i++) {
      const port = await freePort();
      ctx.bases.push(`http://127.0.0.1:${port}`);
      const file = writeConfig(work.path, `data_dir: ${work.path}/data-${i}
${schema ? `storage: { url: "${schema.url}" }\n` : ''}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  projects: []
`, `vigil-${i}.yaml`);
      ctx.procs.push(await startVigil(file, ctx.bases[i], { cwd: work.path }));
    }
  });

  test.after(async (ctx) => {
    await Promise.all(ctx.procs.map((p) => p.stop('SIGKILL')));
    await schema?.drop();
    work.cleanup();
  });

  test('rotated with a 2 s grace: the old key works until the grace ends and is refused from then on, in every process', async ({ bases }) => {
    const api = llmClient(bases[0]);
    const made = await api.dashboard(TOKEN, '/api/llm/projects', { method: 'POST', body: JSON.stringify({ name: 'graced' }) });
    assert.is(made.status, 201, JSON.stringify(made.body));
    const old = made.body.key as string;
    // Every process finds the key now, and caches it with no end.
    for (const base of bases) assert.is((await llmClient(base).get(old, '/api/v1/traces?limit=1')).status, 200);

    const rotated = await api.dashboard(TOKEN, '/api/llm/projects/graced/rotate-key', { method: 'POST', body: JSON.stringify({ grace: '2s' }) });
    assert.is(rotated.status, 200, JSON.stringify(rotated.body));
    const expiry = Date.parse(rotated.body.previous_keys_expire_at);
    const polled = await Promise.all(bases.map((base) => pollUntilRefused(base, old, expiry + 3000)));

    polled.forEach((polls, i) => {
      const accepted = polls.filter((p) => p.status === 200);
      const refused = polls.find((p) => p.status !== 200);
      assert.ok(accepted.some((p) => p.sentAt >= expiry - 1000), `process ${i}: the old key worked in the last second of its grace`);
      const late = accepted.filter((p) => p.sentAt >= expiry);
      assert.equal(late.map((p) => p.sentAt - expiry), [], `process ${i}: the old key worked after its grace (ms after the end)`);
      assert.ok(refused, `process ${i}: the old key was never refused`);
      assert.is(refused!.status, 401);
      assert.ok(refused!.sentAt <= expiry + REFUSED_WITHIN_MS, `process ${i}: first refused ${refused!.sentAt - expiry} ms after the grace ended`);
    });
    for (const base of bases) assert.is((await llmClient(base).get(rotated.body.key, '/api/v1/traces?limit=1')).status, 200, 'the new key works');
  });

  return test;
}

define('sqlite').run();
if (await postgresAvailable('llm-key-grace')) define('postgres').run();
