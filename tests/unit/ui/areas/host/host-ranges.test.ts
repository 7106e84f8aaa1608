import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HOST_RANGE_OPTIONS, HOST_RANGES, hostRangeStep, isHourly, trendCsvPath } from '../../../../../ui/src/areas/host/host-ranges.js';

test('a day is minute samples, longer ranges hourly rollups', () => {
  assert.is(hostRangeStep('24h'), 60_000);
  assert.is(hostRangeStep('90d'), 3_600_000);
  assert.not.ok(isHourly('24h'));
  assert.ok(isHourly('7d'));
});

test('every range has an option, and the CSV link carries no token', () => {
  assert.equal(HOST_RANGE_OPTIONS.map((o) => o.value), [...HOST_RANGES]);
  for (const r of HOST_RANGES) {
    assert.is(trendCsvPath(r), `/api/trendcsv?range=${r}`);
    assert.not.match(trendCsvPath(r), /token|[?&]t=/);
  }
});

test.run();
