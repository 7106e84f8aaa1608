import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PromptVersionChange, Store } from '@vigil/plugin-sdk';
import { llmMigrations } from '../../../../plugins/llm/migrations.js';
import { normaliseTemplate, templateHash } from '../../../../plugins/llm/normalise-template.js';
import { PromptVersions, type ResolvedVersion } from '../../../../plugins/llm/prompt-versions.js';
import { backendKinds, type BackendKind } from '../../runtime/store/backend-kinds.js';

const project = { id: 'p1', name: 'alpha' };

function define(kind: BackendKind) {
  const test = suite(`prompt versions (${kind.name})`);
  test.after(() => kind.cleanup());

  /** `n` store handles on one database: each stands for a process with its own connections. */
  async function stores(n: number): Promise<Store[]> {
    const url = await kind.fresh();
    const out: Store[] = [];
    for (let i = 0; i < n; i++) {
      const store = (await kind.open(url)).forPlugin('llm');
      await store.migrate(llmMigrations);
      out.push(store);
    }
    return out;
  }

  test('an unseen hash is N+1 and announced once; a seen one is found again, also by a fresh process', async () => {
    const [store, other] = await stores(2);
    const events: PromptVersionChange[] = [];
    const versions = new PromptVersions(store);
    const resolved = async (p: Promise<ResolvedVersion>) => {
      const { change, ...r } = await p;
      if (change) events.push(change);
      return r;
    };
    const text = normaliseTemplate('Hello {{name}}  \r\n');
    assert.equal(await resolved(versions.resolve(project, 'greet', templateHash(text), text, 1000)), { version: 1, created: true });
    assert.equal(await resolved(versions.resolve(project, 'greet', templateHash(text), text, 2000)), { version: 1, created: false });
    assert.equal(await resolved(versions.resolve(project, 'greet', templateHash('Hi'), 'Hi', 3000)), { version: 2, created: true });
    assert.equal(await resolved(versions.resolve({ id: 'p2', name: 'beta' }, 'greet', templateHash('Hi'), 'Hi', 3000)), { version: 1, created: true });
    assert.equal(await resolved(new PromptVersions(other).resolve(project, 'greet', templateHash('Hi'), 'Hi', 4000)), { version: 2, created: false });
    assert.equal(events.map((e) => [e.project, e.template, e.version, e.previous_version]), [['alpha', 'greet', 1, null], ['alpha', 'greet', 2, 1], ['beta', 'greet', 1, null]]);
    const [row] = await store.query<{ text: string }>('SELECT text FROM llm_prompt_versions WHERE project_id = ? AND version = 1', ['p1']);
    assert.is(row.text, 'Hello {{name}}');
  });

  test('several processes racing over one template: numbers 1..N, no gaps, no repeats, each text once', async () => {
    const handles = await stores(kind.name === 'postgres' ? 4 : 2);
    const events: PromptVersionChange[] = [];
    const workers = handles.map((s) => new PromptVersions(s));
    const texts = Array.from({ length: 12 }, (_, i) => `template text ${i}`);
    // Every worker resolves every text, in its own order, all at once.
    await Promise.all(workers.flatMap((w, wi) => texts.map((_, ti) => {
      const t = texts[(ti * (wi + 1) + wi) % texts.length];
      return w.resolve(project, 'raced', templateHash(t), t, 1).then((r) => { if (r.change) events.push(r.change); });
    })));
    const rows = await handles[0].query<{ version: number; hash: string }>(
      "SELECT version, hash FROM llm_prompt_versions WHERE project_id = 'p1' AND template = 'raced' ORDER BY version");
    assert.equal(rows.map((r) => Number(r.version)), texts.map((_, i) => i + 1));
    assert.is(new Set(rows.map((r) => r.hash)).size, texts.length);
    assert.is(events.length, texts.length, 'each version announced once');
    assert.equal(events.map((e) => e.version).sort((a, b) => a - b), texts.map((_, i) => i + 1));
  });

  return test;
}

for (const kind of await backendKinds('llm_prompt_versions')) define(kind).run();
