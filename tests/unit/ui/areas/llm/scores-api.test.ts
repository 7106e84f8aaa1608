import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isTraceLevel, sentValueText, traceScoresPath } from '../../../../../ui/src/areas/llm/scores-api.js';

test('a sent score\'s value is shown as sent: numbers on their own scale, booleans as words, categories as text', () => {
  assert.is(sentValueText({ value: 7, data_type: 'NUMERIC' }), '7');
  assert.is(sentValueText({ value: 0.1 + 0.2, data_type: 'NUMERIC' }), '0.3');
  assert.is(sentValueText({ value: 1, data_type: 'BOOLEAN' }), 'true');
  assert.is(sentValueText({ value: 0, data_type: 'BOOLEAN' }), 'false');
  assert.is(sentValueText({ value: 'friendly', data_type: 'CATEGORICAL' }), 'friendly');
  assert.is(sentValueText({ value: null, data_type: 'NUMERIC' }), '—');
});

test('the trace\'s scores route, escaped; a score without a trace item is about the whole trace', () => {
  assert.is(traceScoresPath('shop bot', 'a/b'), '/api/llm/projects/shop%20bot/traces/a%2Fb/scores?limit=200');
  assert.ok(isTraceLevel({ trace_id: null }));
  assert.not.ok(isTraceLevel({ trace_id: '0193' }));
});

test.run();
