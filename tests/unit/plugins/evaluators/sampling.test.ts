import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { sampled } from '../../../../plugins/evaluators/sampling.js';

const ids = Array.from({ length: 2000 }, () => randomUUID());

test('sample_rate 0.1 over 2,000 traces picks 10 % ± 2 %, and the same traces on a rerun', () => {
  const first = ids.filter((id) => sampled('helpfulness', id, 0.1));
  assert.ok(first.length >= 160 && first.length <= 240, `${first.length} of 2000 sampled`);
  const again = ids.filter((id) => sampled('helpfulness', id, 0.1));
  assert.equal(again, first);
});

test('each definition samples on its own: two at 0.1 do not pick the same tenth', () => {
  const a = new Set(ids.filter((id) => sampled('a', id, 0.1)));
  const b = ids.filter((id) => sampled('b', id, 0.1));
  const both = b.filter((id) => a.has(id)).length;
  // Independent tenths share about 1 % of the traces (20 of 2,000), far from the 200 of one shared tenth.
  assert.ok(both < 60, `${both} traces picked by both`);
});

test('rates 0 and 1 take none and all; a lower rate picks a subset of a higher one', () => {
  assert.is(ids.filter((id) => sampled('d', id, 0)).length, 0);
  assert.is(ids.filter((id) => sampled('d', id, 1)).length, 2000);
  const low = ids.filter((id) => sampled('d', id, 0.05));
  const high = new Set(ids.filter((id) => sampled('d', id, 0.5)));
  assert.ok(low.every((id) => high.has(id)));
});

test.run();
