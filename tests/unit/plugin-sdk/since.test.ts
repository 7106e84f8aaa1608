// plugin-sdk/src/since.ts: the `since` parameter every public list takes (llm's lists, the evaluators' scores).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tryParseSince } from '@vigil/plugin-sdk';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

test('epoch ms, ISO 8601 (UTC without an offset) and durations back from now', () => {
  assert.is(tryParseSince('1700000000000', NOW), 1700000000000);
  assert.is(tryParseSince('2026-11-25T10:00:00Z', NOW), Date.UTC(2026, 10, 25, 10));
  assert.is(tryParseSince('2026-11-25T10:00:00', NOW), Date.UTC(2026, 10, 25, 10));
  assert.is(tryParseSince('2026-11-25T10:00:00+02:00', NOW), Date.UTC(2026, 10, 25, 8));
  assert.is(tryParseSince('2026-11-25', NOW), Date.UTC(2026, 10, 25));
  assert.is(tryParseSince(' 15m ', NOW), NOW - 15 * 60_000);
  assert.is(tryParseSince('7d', NOW), NOW - 7 * 86_400_000);
});

test('anything else is undefined, a date off the calendar too (not rolled over)', () => {
  for (const bad of ['', 'yesterday', '-5', '1.5', '2026-02-30', '2026-02-30T10:00:00Z', '2026-04-31T00:00:00+02:00', '2026-13-01T00:00:00', '15x', 'T10:00']) {
    assert.is(tryParseSince(bad, NOW), undefined, bad);
  }
});

test.run();
