// Adaptive per-route observation sampling (field-sampling.ts): a route is observed fully while it warms up and after
// a batch found something new, then one exchange in K (a counter, not a random draw) is walked and counts K times.
// The counts are estimates that stay near the truth; `full` (no sampling) counts exactly; the guarantee for a field
// that first appears after warm-up is exactly the one tested here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FieldObservation } from '../../../../gateway/fields/api-fields.js';
import { FieldAccumulator } from '../../../../gateway/fields/field-accumulator.js';
import { FieldRecorder } from '../../../../gateway/fields/field-recorder.js';
import governBatch from '../../../../gateway/govern/govern-worker.js';
import { FieldSampling } from '../../../../gateway/fields/field-sampling.js';
import { governForStorage } from '../../../../gateway/govern/govern.js';
import { compilePolicy } from '../../../../policies/compile.js';
import type { PolicyConfig } from '../../../../policies/schema.js';
import type { RawExchange } from '../../../../gateway/govern/types.js';

const policy: PolicyConfig = { rules: [{ name: 'all', match: { path: '/**' }, redact: { json_fields: ['$.secret'] } }] };
const compiled = compilePolicy(policy);
const WARMUP = 1_000;
const EVERY = 16;

function exchange(i: number, body: Record<string, unknown>, time = 1_000 + i): RawExchange {
  const path = `/api/orders/${100 + i}`;
  return {
    id: `e${i}`, time, method: 'POST', target: `${path}?page=${i % 7}`, path, ruleIndexes: [...compiled.decide('POST', path).ruleIndexes],
    labels: {}, requestHeaders: ['Content-Type', 'application/json'], responseHeaders: ['Content-Type', 'application/json'],
    status: 200, durationMs: 1, requestBody: Buffer.from(JSON.stringify(body)), requestTruncated: false,
    responseBody: Buffer.from('{"ok":true}'), responseTruncated: false,
  };
}

/** Traffic in worker-sized batches, each batch's observations taken and merged as capture merges them. */
function run(bodies: Array<Record<string, unknown>>, sampling: FieldSampling | null, batch = 100): FieldObservation[] {
  const acc = new FieldAccumulator();
  for (let from = 0; from < bodies.length; from += batch) {
    const recorder = new FieldRecorder(undefined, sampling);
    for (let i = from; i < Math.min(bodies.length, from + batch); i++) {
      const e = exchange(i, bodies[i]);
      governForStorage(e, compiled.decisionFor(e.ruleIndexes), { random: () => 0, fields: recorder });
    }
    acc.add(recorder.take().fields);
  }
  return acc.take();
}

const ROUTE = 'POST /api/orders/{id}';
const find = (fields: FieldObservation[], location: string, name: string, status = 0) =>
  fields.find((f) => f.route === ROUTE && f.location === location && f.name === name && f.status === status);

/** A fixed pseudo-random sequence: traffic that is not periodic (a period sharing a factor with K would alias). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32);
}

function traffic(n: number): { bodies: Array<Record<string, unknown>>; truth: { a: number; b: number; bString: number; rare: number } } {
  const rnd = lcg(42);
  const bodies: Array<Record<string, unknown>> = [];
  const truth = { a: n, b: 0, bString: 0, rare: 0 };
  for (let i = 0; i < n; i++) {
    const body: Record<string, unknown> = { a: i, secret: 'hunter2' };
    if (rnd() < 0.005) { body.rare = 1; truth.rare++; }
    if (rnd() < 0.3) {
      truth.b++;
      if (rnd() < 0.5) { body.b = 'ann@example.com'; truth.bString++; } else body.b = 7;
    }
    bodies.push(body);
  }
  return { bodies, truth };
}

test('a route observed 10,000 times: exact exchange counts, scaled field counts near the truth, presence ratios right', () => {
  const { bodies, truth } = traffic(10_000);
  const fields = run(bodies, new FieldSampling({ warmup: WARMUP, every: EVERY }));
  const exchanges = find(fields, 'exchange', '', 200)!;
  assert.is(exchanges.count, 10_000, 'every exchange is counted, walked or not');
  const root = find(fields, 'request_body', '$')!;
  assert.is(root.parents, 10_000);
  const near = (got: number, want: number, what: string, tolerance: number) =>
    assert.ok(Math.abs(got - want) <= want * tolerance, `${what}: ${got} vs ${want}`);
  // About (10,000 - 1,100) / 16 = 556 exchanges are walked past warm-up. A field in a share p of them is estimated
  // with a relative standard deviation of sqrt((1 - p) / (p × 556)): allow three of them.
  const within = (p: number) => 3 * Math.sqrt((1 - p) / (p * 556)) + 0.01;
  // `a` is in every body: one walked exchange in 16 counts 16 times, off only where a walk's 16 straddle a switch
  // back to full observation.
  const a = find(fields, 'request_body', '$.a')!;
  near(a.count, truth.a, '$.a', 0.01);
  assert.is(a.kinds.integer, a.count);
  const b = find(fields, 'request_body', '$.b')!;
  near(b.count, truth.b, '$.b count', within(0.3));
  near(b.kinds.string!, truth.bString, '$.b strings', within(0.15));
  near(b.formats.email!, truth.bString, '$.b emails', within(0.15));
  // The presence ratio, within three standard deviations of a share: sqrt(p (1 - p) / 556) = 0.019.
  assert.ok(Math.abs(b.count / b.parents - truth.b / 10_000) <= 0.06, `$.b presence ${b.count / b.parents}`);
  // Redacted fields are counted by name and type, scaled like the rest.
  const secret = find(fields, 'request_body', '$.secret')!;
  assert.is(secret.redacted, secret.count);
  near(secret.count, 10_000, '$.secret', 0.01);
  near(find(fields, 'query', 'page')!.count, 10_000, 'query page', 0.01);
  near(find(fields, 'path', 'id')!.count, 10_000, 'path id', 0.01);
  assert.is(b.parents, root.kinds.object);
});

test('full observation (record_fields: full, one in one) counts exactly; a rare field keeps the parents of batches it missed', () => {
  const { bodies, truth } = traffic(10_000);
  const fields = run(bodies, new FieldSampling({ every: 1 }));
  const b = find(fields, 'request_body', '$.b')!;
  assert.equal([b.count, b.parents, b.kinds.string, b.formats.email], [truth.b, 10_000, truth.bString, truth.bString]);
  // In about half the batches of 100 there is no `rare`: their 100 containers still count in its parents (only those
  // after its last batch wait for its next appearance), so its presence ratio is not overstated twofold.
  const rare = find(fields, 'request_body', '$.rare')!;
  assert.is(rare.count, truth.rare);
  assert.ok(rare.parents >= 9_500 && rare.parents <= 10_000, `parents ${rare.parents}`);
  // Without the thread's history (a lone FieldRecorder per batch), the batches without it were lost.
  const alone = find(run(bodies, null), 'request_body', '$.rare')!;
  assert.ok(alone.parents < 8_000, `parents without history ${alone.parents}`);
});

test('last_seen of a field is the time of the last exchange in which it was observed', () => {
  const sampling = new FieldSampling({ warmup: 10, every: EVERY });
  const bodies = Array.from({ length: 200 }, (_, i) => ({ a: i }));
  const fields = run(bodies, sampling, 200);
  const a = find(fields, 'request_body', '$.a')!;
  // Walked after warm-up: exchanges 10, 26, … 186 (1 in 16); 199 was not walked.
  assert.is(a.lastSeen, 1_000 + 186);
  assert.is(find(fields, 'exchange', '', 200)!.lastSeen, 1_000 + 199);
  assert.is(a.count, 10 + 12 * EVERY);
});

test('a field first sent after warm-up in K consecutive exchanges is recorded, and the route is then observed fully again', () => {
  const sampling = new FieldSampling({ warmup: 100, every: EVERY, renew: 100 });
  const bodies: Array<Record<string, unknown>> = Array.from({ length: 1_000 }, (_, i) => ({ a: i }));
  // After warm-up, at a position that is no multiple of anything: 16 consecutive exchanges with a new field.
  for (let i = 517; i < 517 + EVERY; i++) bodies[i].legacy_id = 'x';
  // And once more, alone, after its batch: the renewed full observation sees it exactly.
  bodies[655].legacy_id = 'y';
  const fields = run(bodies, sampling);
  const legacy = find(fields, 'request_body', '$.legacy_id')!;
  assert.ok(legacy, 'the new field is recorded');
  // One walked exchange of the 16 counts 16; the lone one after the renewal counts 1.
  assert.is(legacy.count, EVERY + 1);
  assert.is(legacy.lastSeen, 1_000 + 655);
});

test('a field sent fewer than K times after warm-up may be missed: only walked exchanges are observed', () => {
  const sampling = new FieldSampling({ warmup: 100, every: EVERY, renew: 0 });
  const bodies: Array<Record<string, unknown>> = Array.from({ length: 400 }, (_, i) => ({ a: i }));
  bodies[101].rare = true; // exchange 100 is walked, 101 is not
  bodies[116].seen = true; // 116 = 100 + 16 is walked
  const fields = run(bodies, sampling);
  assert.not.ok(find(fields, 'request_body', '$.rare'));
  assert.is(find(fields, 'request_body', '$.seen')!.count, EVERY);
});

test('a route whose kept rows reach the cap starts again after its batch: a field new in a later batch is recorded', () => {
  const sampling = new FieldSampling({ every: 1 });
  const limits = { fieldsPerRoute: 8, routes: 10, depth: 12 };
  const batch = (body: Record<string, unknown>, i: number) => {
    const recorder = new FieldRecorder(limits, sampling);
    const e = exchange(i, body);
    governForStorage(e, compiled.decisionFor(e.ruleIndexes), { random: () => 0, fields: recorder });
    return recorder.take();
  };
  // exchange, path id, query page, two content-type headers, `$`, `$.a`, `$.b`: the cap; the response's `$` is left out.
  const first = batch({ a: 1, b: 2 }, 0);
  assert.is(first.fieldOverflow.route, 1);
  const second = batch({ c: 3 }, 1);
  assert.ok(find(second.fields, 'request_body', '$.c'), 'not frozen out by the rows the thread kept');
  assert.is(find(second.fields, 'exchange', '', 200)!.count, 1);
});

test('the worker: recordFields full counts every exchange exactly; true samples past warm-up, exchange rows exact', async () => {
  const { bodies, truth } = traffic(4_000);
  const through = async (recordFields: true | 'full') => {
    const acc = new FieldAccumulator();
    for (let from = 0; from < bodies.length; from += 100) {
      const exchanges = bodies.slice(from, from + 100).map((body, k) => exchange(from + k, body));
      acc.add((await governBatch({ policy, exchanges, recordFields })).fields!);
    }
    return acc.take();
  };
  const full = await through('full');
  const b = find(full, 'request_body', '$.b')!;
  assert.equal([b.count, b.parents, b.kinds.string], [truth.b, 4_000, truth.bString]);
  const sampled = await through(true);
  assert.is(find(sampled, 'exchange', '', 200)!.count, 4_000);
  // Past warm-up one exchange in 16 is walked and counts 16: `$.a`, in every body, is off by at most a walk or two.
  const a = find(sampled, 'request_body', '$.a')!;
  assert.ok(Math.abs(a.count - 4_000) <= 32, `$.a ${a.count}`);
});

test.run();
