// Plans (llm.plans) are checked before anything starts, like every other key: an unknown key inside a plan, a project
// or the defaults naming a plan that is not there, and a plan's sizes and durations, each named by file, line and key
// path.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../support/tmp.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const work = tempDir('vigil-llm-plans-config-');
test.after(() => work.cleanup());

const validate = async (llm: string) => {
  const file = writeConfig(work.path, `data_dir: ${work.path}/data\nllm:\n${llm}`, 'vigil.yaml');
  return runVigil(['validate', '-config', file], { cwd: work.path });
};

test('plans with limits, a budget and a retention, taken by a project and by the defaults, pass', async () => {
  const r = await validate(`  plans:
    starter: { description: Small teams, limits: { items_per_month: 1000, items_per_batch: 100, body_bytes: 1mb }, budget: { monthly_usd: 20 }, retention: 14d }
    pro: { limits: { items_per_month: 1000000 }, budget: { monthly_usd: 500 }, retention: 90d }
  defaults: { plan: pro }
  projects:
    - { name: shop, key: shop-key-0123456789abcdef, plan: starter }
`);
  assert.is(r.code, 0, r.stderr);
});

test('an unknown key inside a plan is refused with its file, line and key path', async () => {
  const r = await validate('  plans:\n    pro:\n      limits: { items_per_mnth: 5 }\n');
  assert.is(r.code, 2, r.stdout);
  assert.match(r.stderr, /vigil\.yaml:5:\d+: unknown key llm\.plans\.pro\.limits\.items_per_mnth \(did you mean items_per_month\?\)/);
});

test('a plan takes limits, budget, retention and description only: redaction stays per project', async () => {
  const r = await validate('  plans:\n    pro: { redact: { detect: [] } }\n');
  assert.is(r.code, 2, r.stdout);
  assert.match(r.stderr, /vigil\.yaml:4:\d+: unknown key llm\.plans\.pro\.redact; allowed here: description, limits, budget, retention/);
});

test('a project naming a plan that llm.plans lacks is refused, with the plans there are', async () => {
  const r = await validate(`  plans:
    pro: { limits: { items_per_month: 5 } }
  projects:
    - { name: shop, key: shop-key-0123456789abcdef, plan: gold }
`);
  assert.is(r.code, 2, r.stdout);
  assert.match(r.stderr, /vigil\.yaml:6:\d+: llm\.projects\[0\]\.plan: there is no plan "gold" in llm\.plans \(plans: pro\)/);
});

test('the defaults naming a plan without any plans are refused, saying where to add one', async () => {
  const r = await validate('  defaults: { plan: pro }\n');
  assert.is(r.code, 2, r.stdout);
  assert.match(r.stderr, /llm\.defaults\.plan: there is no plan "pro" in llm\.plans \(it declares none; add one under llm\.plans\)/);
});

test('a plan\'s body limit over llm.max_body_bytes, and a retention that is not a duration, are refused by key', async () => {
  const body = await validate('  max_body_bytes: 1mb\n  plans:\n    big: { limits: { body_bytes: 2mb } }\n');
  assert.is(body.code, 2, body.stdout);
  assert.match(body.stderr, /llm\.plans\.big\.limits\.body_bytes: 2097152 bytes is more than llm\.max_body_bytes \(1048576\)/);
  const retention = await validate('  plans:\n    big: { retention: forever }\n');
  assert.is(retention.code, 2, retention.stdout);
  assert.match(retention.stderr, /llm\.plans\.big\.retention/);
});

test('a plan name a project could not spell is refused', async () => {
  const r = await validate('  plans:\n    "=bad": {}\n');
  assert.is(r.code, 2, r.stdout);
  assert.match(r.stderr, /llm\.plans/);
});

test.run();
