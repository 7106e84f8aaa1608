import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { draftOf, effectiveText, fieldOfProblem, formatBytes, formatRetention, settingsOf, type SettingsDraft } from '../../../../../ui/src/areas/llm/settings-form.js';
import type { ProjectSettings } from '../../../../../ui/src/areas/llm/llm-api.js';

const empty = draftOf({});

test('stored settings become text fields and come back the same', () => {
  const settings: ProjectSettings = {
    budget: { monthly_usd: 200, over_budget_sample_rate: 0.1 },
    limits: { items_per_month: 5_000_000, items_per_batch: 500, body_bytes: '2mb' },
    redact: { json_fields: ['$.input.**.email', '$.metadata.phone'], detect: ['email', 'iban'] },
    retention: '14d',
  };
  const draft = draftOf(settings);
  assert.is(draft.jsonFields, '$.input.**.email\n$.metadata.phone');
  assert.equal(settingsOf(draft), { settings });
});

test('empty fields are not set (the project follows the defaults); detectors follow the default until chosen', () => {
  assert.equal(settingsOf(empty), { settings: {} });
  assert.equal(settingsOf({ ...empty, detect: [] }), { settings: { redact: { detect: [] } } }, 'none on is a choice');
  assert.equal(settingsOf({ ...empty, monthlyUsd: ' 49.50 ', bodyBytes: '1048576', jsonFields: '\n $.a \n\n' }),
    { settings: { budget: { monthly_usd: 49.5 }, limits: { body_bytes: 1_048_576 }, redact: { json_fields: ['$.a'] } } });
});

test('values the page can check are checked, each problem on its field', () => {
  const bad: SettingsDraft = { ...empty, monthlyUsd: '-5', sampleRate: '1.5', itemsPerMonth: '1e6', itemsPerBatch: '0', bodyBytes: 'huge', retention: '2w', jsonFields: 'input.email' };
  const r = settingsOf(bad);
  assert.ok('problems' in r);
  if (!('problems' in r)) return;
  assert.equal(Object.keys(r.problems).sort(), ['bodyBytes', 'itemsPerBatch', 'itemsPerMonth', 'jsonFields', 'monthlyUsd', 'retention', 'sampleRate']);
  assert.match(r.problems.jsonFields!, /starting with \$/);
  assert.ok('settings' in settingsOf({ ...empty, retention: '1d12h', bodyBytes: '512 KiB', itemsPerBatch: '100000' }));
});

test('the settings in force read as words', () => {
  assert.equal(effectiveText({
    plan: null, monthlyBudgetUsd: null, overBudgetSampleRate: 0.1, itemsPerMonth: null, itemsPerBatch: 1000, bodyBytes: 5 * 1024 * 1024, itemKeys: 10_000, itemBytes: 1024 * 1024,
    redact: { json_fields: [], detect: [] }, retentionMs: 30 * 86_400_000,
  }), { plan: 'no plan', budget: 'no cap', sampleRate: '0.1', itemsPerMonth: 'no limit', itemsPerBatch: '1000', bodyBytes: '5 MiB', retention: '30 days' });
  assert.is(formatBytes(1536), '1.5 KiB');
  assert.is(formatBytes(900), '900 B');
  assert.is(formatRetention(86_400_000), '1 day');
  assert.is(formatRetention(36 * 3_600_000), '36 h');
});

test('the server\'s problem goes on the field its key path names', () => {
  assert.equal(fieldOfProblem('settings.redact.json_fields.0: "$.a[": unclosed "[" at offset 3'), { field: 'jsonFields', text: '"$.a[": unclosed "[" at offset 3' });
  assert.equal(fieldOfProblem('settings.limits.body_bytes: 9999999999 bytes is more than llm.max_body_bytes (5242880)')?.field, 'bodyBytes');
  assert.is(fieldOfProblem('a project named "x" exists already'), null);
});


test('a project\'s plan comes back on save, a name no plan could have is refused on its field, and so is the server\'s unknown plan', () => {
  const settings: ProjectSettings = { plan: 'starter', limits: { items_per_month: 500 } };
  assert.equal(settingsOf(draftOf(settings)), { settings });
  const bad = settingsOf({ ...empty, plan: '=starter' });
  assert.ok('problems' in bad && /llm\.plans/.test(bad.problems.plan ?? ''));
  assert.equal(fieldOfProblem('settings.plan: there is no plan "gold" in llm.plans (plans: pro)'),
    { field: 'plan', text: 'there is no plan "gold" in llm.plans (plans: pro)' });
});

test.run();
