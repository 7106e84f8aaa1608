import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { errorRateClass, errorRateTone } from '../../../../ui/src/format/error-rate.js';

test('one scale for every area: quiet below 1 %, a warning from 1 %, danger from 5 %', () => {
  assert.equal([0, 0.009, 0.01, 0.049, 0.05, 1].map(errorRateTone), ['neutral', 'neutral', 'warning', 'warning', 'danger', 'danger']);
  assert.is(errorRateClass(0), 'muted');
  assert.is(errorRateClass(0.002), 'tone-neutral');
  assert.is(errorRateClass(0.2), 'tone-danger');
});

test.run();
