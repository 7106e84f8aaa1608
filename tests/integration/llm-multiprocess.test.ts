// Issue 23 (seed 001, item 9): three `vigil run` processes on one PostgreSQL. Two take ingest (each stores its own); one
// of the ingest processes is killed with SIGKILL mid-load. Every accepted item is stored exactly once, and prompt
// version numbers have no gaps and no repeats.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { llmClient, traceItem } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEY = 'multi-process-key-0123456789';
const BATCHES = 80;
const PER_BATCH = 50;
/** Eight texts over two templates: every process races the others for the next numbers. */
const TEMPLATES = Array.from({ length: 8 }, (_, i) => ({ name: `tpl-${i % 2}`, raw: `Prompt text number ${i}\n{{input}}` }));

if (await postgresAvailable('llm-multiprocess')) {
  const work = tempDir('vigil-llm-multi-');
  const schema = await freshPostgresSchema('llm_multi');
  const procs: VigilProcess[] = [];
  const bases: string[] = [];

  test.before(async () => {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      bases.push(`http://127.0.0.1:${port}`);
      const file = writeConfig(work.path, `data_dir: ${work.path}/data-${i}
storage: { url: "${schema.url}" }
control_plane: { listen: 127.0.0.1:${port}, token: multi-token }
llm:
  persist: { concurrency: 2, backoff: 100ms, timeout: 3s }
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

  test('SIGKILL mid-load: every accepted item is stored exactly once; version numbers have no gaps and no repeats', async () => {
    const accepted = new Set<string>();
    let killed = false;
    let next = 0;
    const sendBatch = async (b: number) => {
      const traces = Array.from({ length: PER_BATCH }, (_, i) => traceItem({ id: randomUUID(), prompt_template: TEMPLATES[(b * PER_BATCH + i) % TEMPLATES.length] }));
      // Ingest goes to processes 0 and 1; a batch whose request failed (its process was killed) is sent again to the
      // other, with the same ids, as a client retries.
      for (let attempt = 0; ; attempt++) {
        const target = killed ? 1 : (b + attempt) % 2;
        try {
          const r = await llmClient(bases[target]).ingest(KEY, { traces });
          assert.is(r.status, 202);
          for (const id of r.body.ids) accepted.add(id);
          return;
        } catch (err) {
          if (attempt > 5) throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < BATCHES) {
        const b = next++;
        if (b === BATCHES / 2 && !killed) {
          killed = true;
          procs[0].proc.kill('SIGKILL');
        }
        await sendBatch(b);
      }
    }));
    assert.is(accepted.size, BATCHES * PER_BATCH);

    const db = new pg.Client({ connectionString: schema.url });
    await db.connect();
    try {
      // A batch whose process was killed mid-request was sent again to the other (its ids make that idempotent).
      await waitFor(async () => Number((await db.query('SELECT COUNT(*) AS n FROM llm_traces')).rows[0].n) >= accepted.size,
        { timeoutMs: 60_000, what: 'every accepted item stored' });
      const { rows: [counts] } = await db.query('SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM llm_traces');
      assert.equal([Number(counts.n), Number(counts.ids)], [accepted.size, accepted.size], 'stored exactly once');
      const stored = new Set((await db.query('SELECT id FROM llm_traces')).rows.map((r) => r.id as string));
      for (const id of accepted) assert.ok(stored.has(id), `accepted ${id} is missing`);
      const versions = (await db.query('SELECT template, version, hash FROM llm_prompt_versions ORDER BY template, version')).rows;
      for (const name of ['tpl-0', 'tpl-1']) {
        const mine = versions.filter((v) => v.template === name);
        assert.equal(mine.map((v) => Number(v.version)), [1, 2, 3, 4], `${name}: versions ${mine.map((v) => v.version)}`);
        assert.is(new Set(mine.map((v) => v.hash)).size, 4);
      }
      // Nothing unredacted waits anywhere: items are stored when their request is answered, never queued.
      const { rows: [jobs] } = await db.query("SELECT COUNT(*) AS n FROM vigil_jobs WHERE queue = 'llm.persist'");
      assert.is(Number(jobs.n), 0, 'no item went through a queue');
      // Each stored trace's version is the one its text hashed to.
      const { rows: mismatched } = await db.query(
        'SELECT COUNT(*) AS n FROM llm_traces t JOIN llm_prompt_versions v ON v.project_id = t.project_id AND v.template = t.template AND v.version = t.version ' +
        "WHERE t.trace::jsonb -> 'prompt_template' ->> 'hash' <> v.hash");
      assert.is(Number(mismatched[0].n), 0);
    } finally {
      await db.end();
    }
  });

  test.run();
}
