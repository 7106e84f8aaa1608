// Label moves on both stores, from several store handles at once (each stands for a process): every move is recorded
// once, and the history is one chain (each move's previous version is the version the move before it set).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import { llmMigrations } from '../../../../../plugins/llm/migrations.js';
import { PromptLabels } from '../../../../../plugins/llm/prompts/prompt-labels.js';
import { backendKinds, type BackendKind } from '../../../runtime/store/backend-kinds.js';

function define(kind: BackendKind) {
  const test = suite(`prompt labels (${kind.name})`);
  test.after(() => kind.cleanup());

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

  test('attach, move, no-op, remove: what each returns and what the history keeps', async () => {
    const [store] = await stores(1);
    const labels = new PromptLabels(store);
    assert.equal(await labels.move('p1', 'greet', 'production', 1, 'alice', 1000), { label: 'production', version: 1, previous_version: null, at: 1000, actor: 'alice' });
    assert.is(await labels.move('p1', 'greet', 'production', 1, 'bob', 2000), null, 'already there: no move');
    assert.equal((await labels.move('p1', 'greet', 'production', 3, 'bob', 3000))?.previous_version, 1);
    assert.is(await labels.versionOf('p1', 'greet', 'production'), 3);
    assert.is(await labels.versionOf('p2', 'greet', 'production'), null, 'another project has its own labels');
    assert.equal(await labels.ofVersion('p1', 'greet', 3), ['production']);
    assert.equal((await labels.move('p1', 'greet', 'production', null, 'carol', 4000))?.previous_version, 3);
    assert.equal(await labels.list('p1', 'greet'), []);
    assert.equal((await labels.moves('p1', 'greet')).map((m) => [m.previous_version, m.version, m.actor, m.at]),
      [[3, null, 'carol', 4000], [1, 3, 'bob', 3000], [null, 1, 'alice', 1000]]);
  });

  test('concurrent moves of one label from four handles: each recorded once, in one unbroken chain', async () => {
    const handles = await stores(4);
    const moves = handles.flatMap((store, h) => Array.from({ length: 10 }, (_, i) =>
      new PromptLabels(store).move('p1', 'busy', 'production', 1 + ((h * 10 + i) % 7), `h${h}`, 10_000 + h * 10 + i)));
    const made = (await Promise.all(moves)).filter((m) => m !== null);
    const labels = new PromptLabels(handles[0]);
    const history = await labels.moves('p1', 'busy');
    assert.is(history.length, made.length, 'one history row per move that changed the label');
    // One chain: one attach, and every move starts from a version some other move set (the last one's stays).
    const previous = history.map((m) => m.previous_version);
    assert.is(previous.filter((p) => p === null).length, 1, 'one attach');
    const set = history.map((m) => m.version as number).sort((a, b) => a - b);
    const left = previous.filter((p): p is number => p !== null);
    const final = await labels.versionOf('p1', 'busy', 'production');
    assert.equal([...left, final!].sort((a, b) => a - b), set, 'each version a move set is left by exactly one later move, but the final one');
  });

  return test;
}

for (const kind of await backendKinds('prompt-labels')) define(kind).run();
