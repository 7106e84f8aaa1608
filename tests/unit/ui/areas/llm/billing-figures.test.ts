import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { monthLabel, monthParam, projectState, shiftMonth, stateOf } from '../../../../../ui/src/areas/llm/billing-figures.js';

const NOW = Date.UTC(2026, 11, 4);

test('months move across years and read as words; a bad month in the address is the current one', () => {
  assert.is(shiftMonth('2026-12', 1), '2027-01');
  assert.is(shiftMonth('2026-01', -1), '2025-12');
  assert.is(shiftMonth('nonsense', -1, NOW), '2026-12');
  assert.is(monthLabel('2026-03'), 'March 2026');
  assert.is(monthParam('2026-13', NOW), '2026-12');
  assert.is(monthParam(null, NOW), '2026-12');
  assert.is(monthParam('2025-07', NOW), '2025-07');
});

test('a project\'s state from the projects list is its worst limit, as the server judges it', () => {
  const effective = { itemsPerMonth: 100, monthlyBudgetUsd: 10 } as Parameters<typeof projectState>[0];
  assert.is(projectState(effective, { items: 10, cost_usd: 1 }), 'ok');
  assert.is(projectState(effective, { items: 80, cost_usd: 1 }), 'near');
  assert.is(projectState(effective, { items: 10, cost_usd: 10 }), 'over');
  assert.is(projectState({ ...effective, itemsPerMonth: null, monthlyBudgetUsd: null }, { items: 10, cost_usd: 10 }), 'none');
  assert.is(stateOf(0, 0), 'ok');
});

test.run();
