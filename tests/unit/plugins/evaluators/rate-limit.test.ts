// The per-project eval rate, as two processes share it: two store handles on one database take slots at once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import { evaluatorsMigrations } from '../../../../plugins/evaluators/migrations.js';
import { RateLimiter } from '../../../../plugins/evaluators/rate-limit.js';
import { backendKinds, type BackendKind } from '../../runtime/store/backend-kinds.js';

function define(kind: BackendKind) {
  const test = suite(`eval rate (${kind.name})`);
  test.after(() => kind.cleanup());

  async function stores(n: number): Promise<Store[]> {
    const url = await kind.fresh();
    const out: Store[] = [];
    for (let i = 0; i < n; i++) {
      const store = (await kind.open(url)).forPlugin('evaluators');
      await store.migrate(evaluatorsMigrations);
      out.push(store);
    }
    return out;
  }

  test('two processes reserving at once get distinct slots, one interval apart, starting now', async () => {
    const [a, b] = await stores(2);
    const now = 1_700_000_000_000;
    const perMinute = () => 60;
    const limiters = [new RateLimiter(a, perMinute, () => now), new RateLimiter(b, perMinute, () => now)];
    const slots = await Promise.all(Array.from({ length: 40 }, (_, i) => limiters[i % 2].reserve('p1')));
    const sorted = [...slots].sort((x, y) => x - y);
    assert.equal(sorted, Array.from({ length: 40 }, (_, i) => now + i * 1000));
  });

  test('projects have their own rows and rates; an idle project starts at now again', async () => {
    const [store] = await stores(1);
    let now = 1_000_000;
    const rates: Record<string, number> = { fast: 600, slow: 6 };
    const limiter = new RateLimiter(store, (p) => rates[p], () => now);
    assert.equal([await limiter.reserve('fast'), await limiter.reserve('fast'), await limiter.reserve('slow'), await limiter.reserve('slow')],
      [now, now + 100, now, now + 10_000]);
    now += 60_000;
    assert.is(await limiter.reserve('slow'), now, 'the slot moves with the clock, no credit is saved up');
  });

  test('fractional intervals do not drift: 7 per minute spaces slots 8571.43 ms apart', async () => {
    const [store] = await stores(1);
    const limiter = new RateLimiter(store, () => 7, () => 0);
    const slots = [];
    for (let i = 0; i < 8; i++) slots.push(await limiter.reserve('p'));
    assert.ok(Math.abs(slots[7] - 60_000) < 0.01, `the 8th slot at ${slots[7]}`);
  });
  return test;
}

for (const kind of await backendKinds('evaluators_rate')) define(kind).run();
