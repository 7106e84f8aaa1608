import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Piscina } from 'piscina';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import governStorable from '../../../../gateway/govern/govern-worker.js';
import { toGovernedRecord } from '../../../../gateway/govern/govern.js';
import { compilePolicy } from '../../../../policies/compile.js';
import type { PolicyConfig } from '../../../../policies/schema.js';
import type { GovernedRecord, GovernResult, GovernTask, RawExchange } from '../../../../gateway/govern/types.js';
import { GovernanceError } from '../../../../gateway/govern/errors.js';
import { closeWasmPolicies } from '../../../../gateway/govern/govern-worker.js';
import { buildPolicy } from '../../../../sandbox/wasm/build-policy.js';
import { waitFor } from '../../../support/net.js';
import { fixture, fromRoot } from '../../../support/paths.js';
import { tempDir } from '../../../support/tmp.js';

const policy: PolicyConfig = {
  service: { upstream: 'http://127.0.0.1:1' },
  rules: [
    { name: 'all', match: { path: '/**' }, redact: { headers: ['Authorization'] } },
    { name: 'pay', match: { path: '/pay/**' }, redact: { json_fields: ['$.card.number'] } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body'] },
  ],
};

function exchange(id: string, target: string, body: unknown): RawExchange {
  const decision = compilePolicy(policy).decide('POST', target);
  return {
    id, time: 1, method: 'POST', target, path: target, ruleIndexes: [...decision.ruleIndexes], labels: {},
    requestHeaders: ['Authorization', 'Bearer s', 'Content-Type', 'application/json'], responseHeaders: [],
    status: 200, durationMs: 1, requestBody: Buffer.from(JSON.stringify(body)), requestTruncated: false,
    responseBody: null, responseTruncated: false,
  };
}

const batch = (): RawExchange[] => [
  exchange('a', '/pay/1', { card: { number: '4111111111111111' }, n: 1 }),
  exchange('b', '/admin/1', { secret: 1 }),
  exchange('c', '/other', { x: 1 }),
];

/** The worker's answer with each record as it is stored (bodies parsed), for readable assertions. */
const parsed = (result: GovernResult) => ({ ...result, records: result.records.map(toGovernedRecord) });
const governBatch = async (task: GovernTask) => parsed(await governStorable(task));

function check(records: GovernedRecord[]) {
  assert.equal(records.map((r) => r.id), ['a', 'b', 'c']);
  assert.equal(records[0].request_body, { card: { number: '[REDACTED]' }, n: 1 });
  assert.equal(records[0].matched_rules, ['all', 'pay']);
  assert.is(records[1].request_body, null);
  assert.equal(records[2].request_body, { x: 1 });
  for (const r of records) assert.equal(r.headers?.Authorization, '[REDACTED]');
}

test('governs a batch in order, each exchange by its rule indexes; no module, no sandbox failures', async () => {
  assert.equal((await governBatch({ policy, exchanges: batch() })).sandboxFailures, {});
  check((await governBatch({ policy, exchanges: batch() })).records);
});

test('the same policy content is compiled once, whatever the object identity', async () => {
  const a = (await governBatch({ policy: structuredClone(policy), exchanges: batch() })).records;
  const b = (await governBatch({ policy: structuredClone(policy), exchanges: batch() })).records;
  check(a);
  check(b);
});

test('a different policy gives different records', async () => {
  const open: PolicyConfig = { rules: [{ name: 'x', match: { path: '/nothing' } }, { name: 'y', match: { path: '/nothing2' } }, { name: 'z', match: { path: '/n' } }] };
  const [r] = (await governBatch({ policy: open, exchanges: [exchange('a', '/pay/1', { card: { number: '4111' } })] })).records;
  // The indexes came from the other policy; here they name rules that redact nothing.
  assert.equal(r.request_body, { card: { number: '4111' } });
});

test('a malformed task or indexes not in the policy are rejected with a coded error', async () => {
  const rejection = (task: GovernTask) => governBatch(task).then(() => undefined, (e: unknown) => e);
  const malformed = await rejection({} as GovernTask);
  assert.ok(malformed instanceof GovernanceError && malformed.code === 'VIGIL_ERR_GOVERNANCE_TASK', String(malformed));
  const bad = exchange('z', '/pay/1', {});
  bad.ruleIndexes = [7];
  assert.match(String(await rejection({ policy, exchanges: [bad] })), /exchange z: decisionFor: rule index 7/);
});

test('runs as a piscina task module: records come back through structured clone', async () => {
  const pool = new Piscina({ filename: new URL('../../../../gateway/govern/govern-worker.js', import.meta.url).href, minThreads: 1, maxThreads: 1 });
  try {
    const result = await pool.run({ policy, exchanges: batch() } satisfies GovernTask) as GovernResult;
    check(parsed(result).records);
    assert.equal(result.sandboxFailures, {});
  } finally {
    await pool.destroy();
  }
});

// ---- WASM policy modules named by rules ----------------------------------------------------------------------

const dir = tempDir('vigil-govern-wasm-');
let cardsWasm = '';
test.before(async () => {
  cardsWasm = await buildPolicy(fromRoot('examples/policies/card-numbers.ts'), { outFile: join(dir.path, 'card-numbers.wasm') });
});
test.after(async () => {
  await closeWasmPolicies();
  dir.cleanup();
});

/** `policy` with a `wasm` rule for /pay/** naming `module`, and an owner label read from X-Team. */
const withModule = (module: string): PolicyConfig => ({
  rules: [
    ...policy.rules!.map((r) => (r.name === 'all' ? { ...r, labels: { owner: 'header:X-Team' } } : r)),
    { name: 'pay-wasm', match: { path: '/pay/**' }, wasm: module },
  ],
});

function exchangeFor(config: PolicyConfig, id: string, target: string, body: unknown, headers: string[] = [], bytes?: Uint8Array): RawExchange {
  const decision = compilePolicy(config).decide('POST', target);
  const team = headers.indexOf('X-Team');
  return {
    id, time: 1, method: 'POST', target, path: target, ruleIndexes: [...decision.ruleIndexes],
    labels: team >= 0 ? { owner: headers[team + 1] } : {},
    requestHeaders: ['Content-Type', 'application/json', ...headers], responseHeaders: [],
    status: 200, durationMs: 1, requestBody: bytes ?? Buffer.from(JSON.stringify(body)), requestTruncated: false,
    responseBody: null, responseTruncated: false,
  };
}

test('a rule\'s module redacts a card number in a field no YAML rule names, in plain and gzip bodies; other routes are untouched', async () => {
  const config = withModule(cardsWasm);
  const body = { payment: { pan: '4111 1111 1111 1111' }, card: { number: '5555555555554444' }, ts: 1700000000000, note: 'ok' };
  const { records, sandboxFailures } = await governBatch({
    policy: config,
    exchanges: [
      exchangeFor(config, 'plain', '/pay/1', body),
      exchangeFor(config, 'gzip', '/pay/2', undefined, ['Content-Encoding', 'gzip'], gzipSync(Buffer.from(JSON.stringify(body)))),
      exchangeFor(config, 'elsewhere', '/other', body),
    ],
  });
  const redacted = { payment: { pan: '[REDACTED]' }, card: { number: '[REDACTED]' }, ts: 1700000000000, note: 'ok' };
  assert.equal(records[0].request_body, redacted);
  assert.equal(records[1].request_body, redacted, 'the module saw the decompressed body');
  assert.equal(records[2].request_body, body, 'no rule names a module for /other');
  assert.equal(sandboxFailures, {});
  assert.ok(records.every((r) => r.dropped_reason === null));
});

test('a module adds labels but never overwrites one the YAML policy set; the YAML redactions hold', async () => {
  const config = withModule(fixture('wasm', 'echo.wasm'));
  const { records } = await governBatch({
    policy: config,
    exchanges: [
      exchangeFor(config, 'a', '/pay/1', { card: { number: '4111111111111111' } }, ['X-Team', 'payments', 'X-Owner', 'ann']),
      exchangeFor(config, 'b', '/pay/2', { n: 1 }, ['X-Owner', 'ann']),
    ],
  });
  // echo.wasm sets `owner` from X-Owner and adds `route`.
  assert.is(records[0].labels.owner, 'payments', 'the YAML label stays');
  assert.is(records[0].labels.route, 'POST /pay/1 → ✓', 'a new label is added');
  assert.is(records[1].labels.owner, 'ann', 'a label the YAML policy left empty is filled');
  assert.equal(records[0].request_body, { card: { number: '[REDACTED]' } }, 'the YAML redaction holds');
});

test('a module that traps, loops or answers garbage fails its records closed, says why, and is counted', async () => {
  for (const [guest, reason] of [['trap', 'trap'], ['loop', 'timeout'], ['garbage', 'invalid_output']] as const) {
    const config = withModule(fixture('wasm', `${guest}.wasm`));
    const { records, sandboxFailures } = await governBatch({
      policy: config,
      exchanges: [
        exchangeFor(config, 'hit', '/pay/not-json', { card: { number: '4111111111111111' }, secret: 's' }),
        exchangeFor(config, 'miss', '/other', { x: 1 }),
      ],
    });
    assert.is(records[0].request_body, null, guest);
    assert.is(records[0].dropped_reason, `wasm policy failed (${reason}): bodies not kept`, guest);
    assert.equal(records[0].matched_rules, ['all', 'pay', 'pay-wasm'], 'metadata is kept');
    assert.equal(records[1].request_body, { x: 1 }, `${guest}: a record outside the module's rule is not affected`);
    assert.equal(sandboxFailures, { [reason]: 1 }, guest);
  }
});

test('a module that cannot be loaded fails its records closed as unavailable', async () => {
  const config = withModule(join(dir.path, 'deleted.wasm'));
  const { records, sandboxFailures } = await governBatch({ policy: config, exchanges: [exchangeFor(config, 'x', '/pay/1', { a: 1 })] });
  assert.is(records[0].request_body, null);
  assert.is(records[0].dropped_reason, 'wasm policy failed (unavailable): bodies not kept');
  assert.equal(sandboxFailures, { unavailable: 1 });
});

test('in a piscina pool: records and failures come back, and destroying the pool ends the sandbox threads too', async () => {
  const threads = () => readdirSync('/proc/self/task').length;
  readdirSync(dir.path); // the libuv thread pool exists before the baseline is taken
  const before = threads();
  const pool = new Piscina({ filename: new URL('../../../../gateway/govern/govern-worker.js', import.meta.url).href, minThreads: 1, maxThreads: 1 });
  const config = withModule(cardsWasm);
  const result = await pool.run({ policy: config, exchanges: [exchangeFor(config, 'p', '/pay/1', { pan: '4111111111111111' })] }) as GovernResult;
  assert.equal(parsed(result).records[0].request_body, { pan: '[REDACTED]' });
  assert.ok(threads() >= before + 2, `a pool thread and its sandbox thread (${threads()} vs ${before})`);
  await pool.destroy();
  // The pool's and the sandbox's threads end asynchronously after destroy(): wait for them on the scaled deadline
  // (a fixed second of polling can be too short on a loaded machine).
  await waitFor(() => threads() <= before, { timeoutMs: 5_000, intervalMs: 20, what: 'the pool and sandbox threads to end' }).catch(() => undefined);
  assert.is(threads(), before);
});

test.run();
