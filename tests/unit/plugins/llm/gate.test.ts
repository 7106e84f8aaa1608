import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_THRESHOLDS, judge } from '../../../../plugins/llm/api/gate.js';
import type { CallStats } from '../../../../plugins/llm/api/version-stats.js';

const stats = (o: Partial<CallStats>): CallStats => ({
  requests: 100, errors: 0, error_rate: 0, avg_score: null, p50_latency_ms: 100, p95_latency_ms: 200, p99_latency_ms: 300,
  cost_usd: 1, avg_cost_usd: 0.01, input_tokens: 0, output_tokens: 0, total_tokens: 0, first_seen: 1, last_seen: 2, ...o,
});
const base = { version: 1, stats: stats({}) };

test('thresholds pass and fail on the right quantity, each check showing both sides', () => {
  const cand = { version: 2, stats: stats({ p95_latency_ms: 230, error_rate: 0.03, avg_cost_usd: 0.012, avg_score: 0.8 }) };
  const b = { version: 1, stats: stats({ avg_score: 0.9 }) };
  const v = judge('t', b, cand, { max_p95_increase_pct: 10, max_error_rate: 0.05, max_cost_increase_pct: 25, max_score_drop: 0.05, min_score: 0.7 }, 30);
  assert.is(v.pass, false);
  const by = Object.fromEntries(v.checks.map((c) => [c.metric, c]));
  assert.is(by.max_p95_increase_pct.value, 15);
  assert.is(by.max_p95_increase_pct.pass, false);
  assert.is(by.max_error_rate.pass, true);
  assert.is(by.max_cost_increase_pct.pass, true);
  assert.ok(Math.abs(by.max_score_drop.value! - 0.1) < 1e-9);
  assert.is(by.max_score_drop.pass, false);
  assert.is(by.min_score.pass, true);
  assert.match(v.reason, /max_p95_increase_pct/);
});

test('too few samples: pass is null and the reason says which side, whatever the checks say', () => {
  const v = judge('t', { version: 1, stats: stats({ requests: 10 }) }, { version: 2, stats: stats({ error_rate: 1 }) }, { max_error_rate: 0.1 }, 30);
  assert.is(v.pass, null);
  assert.match(v.reason, /too few samples: v1 has 10 \(min_samples 30\)/);
  assert.is(v.checks[0].pass, false);
});

test('no baseline (a first version), or no values (no eval scores yet): null with the reason', () => {
  assert.is(judge('t', null, base, {}, 30).pass, null);
  const noScore = judge('t', base, { version: 2, stats: stats({}) }, { min_score: 0.5 }, 30);
  assert.is(noScore.pass, null);
  assert.match(noScore.reason, /min_score/);
});

test('no thresholds: the default ones are checked, not nothing; a rise from zero fails a percentage limit', () => {
  const v = judge('t', base, { version: 2, stats: stats({}) }, {}, 30);
  assert.equal(v.checks.map((c) => c.metric).sort(), Object.keys(DEFAULT_THRESHOLDS).sort());
  assert.is(v.pass, true);
  const fromZero = judge('t', { version: 1, stats: stats({ avg_cost_usd: 0 }) }, { version: 2, stats: stats({ avg_cost_usd: 0.01 }) }, { max_cost_increase_pct: 1000 }, 30);
  assert.equal([fromZero.pass, fromZero.checks[0].value], [false, null]);
});

test.run();
