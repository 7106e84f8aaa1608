// Plans feed a project's settings in force: each key from the project, else its plan (its own, else the defaults'),
// else llm.defaults, else built in; a plan the config no longer has is no plan.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILTIN_DEFAULTS, effectiveSettings } from '../../../../plugins/llm/effective-settings.js';
import type { PlanSettings } from '../../../../plugins/llm/types.js';

const MAX = 10 * 1024 * 1024;
const plans: Record<string, PlanSettings> = {
  starter: { limits: { items_per_month: 1000, items_per_batch: 100, body_bytes: '1mb' }, budget: { monthly_usd: 20 }, retention: '14d' },
  pro: { limits: { items_per_month: 1_000_000 } },
};

test('a project on a plan takes the plan\'s limits, budget and retention', () => {
  const e = effectiveSettings({ plan: 'starter' }, {}, MAX, plans);
  assert.equal([e.plan, e.itemsPerMonth, e.itemsPerBatch, e.bodyBytes, e.monthlyBudgetUsd, e.retentionMs],
    ['starter', 1000, 100, 1024 * 1024, 20, 14 * 86_400_000]);
});

test('the project\'s own settings win over its plan, and its plan over llm.defaults', () => {
  const e = effectiveSettings({ plan: 'starter', limits: { items_per_month: 500 } }, { limits: { items_per_month: 7, items_per_batch: 9 }, budget: { monthly_usd: 1 } }, MAX, plans);
  assert.equal([e.itemsPerMonth, e.itemsPerBatch, e.monthlyBudgetUsd], [500, 100, 20]);
  const pro = effectiveSettings({ plan: 'pro' }, { limits: { items_per_batch: 9 }, budget: { monthly_usd: 1 }, retention: '2d' }, MAX, plans);
  assert.equal([pro.itemsPerMonth, pro.itemsPerBatch, pro.monthlyBudgetUsd, pro.retentionMs], [1_000_000, 9, 1, 2 * 86_400_000], 'what the plan leaves out comes from the defaults');
});

test('the defaults\' plan applies to projects without their own; redaction is never a plan\'s', () => {
  const e = effectiveSettings({}, { plan: 'pro', redact: { detect: ['email'] } }, MAX, plans);
  assert.equal([e.plan, e.itemsPerMonth, e.redact.detect], ['pro', 1_000_000, ['email']]);
  assert.is(effectiveSettings({ plan: 'starter' }, { plan: 'pro' }, MAX, plans).plan, 'starter');
});

test('a plan name the config lacks (removed since) is no plan; no plans at all is the old behaviour', () => {
  const gone = effectiveSettings({ plan: 'gold' }, {}, MAX, plans);
  assert.equal([gone.plan, gone.itemsPerMonth, gone.itemsPerBatch], [null, null, BUILTIN_DEFAULTS.itemsPerBatch]);
  assert.is(effectiveSettings({ plan: 'toString' }, {}, MAX, plans).plan, null, 'only the plans\' own names');
  assert.is(effectiveSettings({}, {}, MAX).plan, null);
});

test('a plan\'s body limit never passes llm.max_body_bytes', () => {
  assert.is(effectiveSettings({ plan: 'starter' }, {}, 512 * 1024, plans).bodyBytes, 512 * 1024);
});

test.run();
