// Langfuse upserts across processes: two `vigil run` on one PostgreSQL, the real `langfuse` v3 SDK. A generation
// created through one process and never ended is stored by whichever process sweeps (once); its end, sent through
// the other process, replaces it; both processes answer the final trace. Many generations at once are each stored
// once, whichever process sweeps them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Langfuse } from 'langfuse';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEY = 'langfuse-upserts-pg-key-0123456789';

if (await postgresAvailable('llm-langfuse-upserts-postgres')) {
  const work = tempDir('vigil-llm-langfuse-upserts-pg-');
  const schema = await freshPostgresSchema('llm_lf_upserts');
  const procs: VigilProcess[] = [];
  const bases: string[] = [];

  test.before(async () => {
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      bases.push(`http://127.0.0.1:${port}`);
      const file = writeConfig(work.path, `data_dir: ${work.path}/data-${i}
storage: { url: "${schema.url}" }
control_plane: { listen: 127.0.0.1:${port}, token: lf-upserts-token }
llm:
  persist: { concurrency: 1 }
  langfuse: { unended_after: 1s }
  projects:
    - { name: shared, key: ${KEY} }
`, `vigil-${i}.yaml`);
      procs.push(await startVigil(file, bases[i], { cwd: work.path }));
    }
  });

  test.after(async () => {
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
    await schema.drop();
    work.cleanup();
  });

  const sdk = (i: number) => new Langfuse({ publicKey: 'pk-lf', secretKey: KEY, baseUrl: bases[i], flushAt: 500 });
  const trace = async (i: number, id: string): Promise<Json | null> => {
    const r = await llmClient(bases[i]).get(KEY, `/api/v1/traces/${id}`);
    return r.status === 200 ? r.body : null;
  };
  const traceWhen = (i: number, id: string, done: (t: Json) => boolean, what: string) =>
    waitFor(async () => { const t = await trace(i, id); return t && done(t) ? t : null; }, { what, timeoutMs: 20_000 }) as Promise<Json>;

  test('created through one process, stored incomplete, ended through the other: both answer the final trace', async () => {
    const a = sdk(0);
    const generation = a.trace({ name: 'chat', sessionId: 's-pg' }).generation({
      name: 'answer', model: 'gpt-4o-mini', input: 'q', output: { content: 'draft' }, usageDetails: { input: 5, output: 1 },
    });
    await a.shutdownAsync();
    const incomplete = await traceWhen(1, generation.id, () => true, 'stored by a sweep');
    assert.is(incomplete.incomplete, 'never_ended');
    assert.equal(incomplete.output, { content: 'draft' });

    // The v3 SDK ends a generation it holds; another process of the app ends it by id, as `generation.end()` sends it.
    const b = sdk(1);
    b.generation({ id: generation.id, traceId: generation.traceId, name: 'answer' }).end({ output: { content: 'final' }, usageDetails: { input: 5, output: 9 } });
    await b.shutdownAsync();
    const final = await traceWhen(0, generation.id, (t) => t.incomplete === undefined, 'the end applied');
    assert.equal(final.output, { content: 'final' });
    assert.equal(final.tokens, { input: 5, output: 9 });
    assert.is(final.session_id, 's-pg');
    assert.equal(await trace(1, generation.id), final);
  });

  test('many un-ended generations through both processes: each stored once, incomplete', async () => {
    const ids: string[] = [];
    for (const i of [0, 1]) {
      const client = sdk(i);
      const t = client.trace({ name: `batch-${i}` });
      for (let n = 0; n < 60; n++) ids.push(t.generation({ name: `g${n}`, model: 'gpt-4o-mini', output: `partial ${n}` }).id);
      await client.shutdownAsync();
    }
    const api = llmClient(bases[0]);
    const stored = await waitFor(async () => {
      const data = (await api.get(KEY, '/api/v1/traces?limit=200')).body.data as Json[];
      const ours = data.filter((t) => ids.includes(t.id));
      return ours.length >= ids.length ? ours : null;
    }, { what: `${ids.length} generations stored`, timeoutMs: 30_000 }) as Json[];
    assert.is(stored.length, ids.length);
    assert.ok(stored.every((t) => t.incomplete === 'never_ended'));
    const usage = await waitFor(async () => {
      const r = await llmClient(bases[1]).dashboard('lf-upserts-token', '/api/llm/projects/shared/stats?range=1h');
      return r.status === 200 ? r.body : null;
    }, { what: 'stats' }) as Json;
    // Each counted once: the earlier test's one trace and these.
    assert.is(usage.requests, ids.length + 1, JSON.stringify(usage));
  });

  test.run();
}
