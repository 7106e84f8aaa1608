import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gateApiPath, gateCommand, gateSearch, readGateForm, shellWord, thresholdProblem } from '../../../../../ui/src/areas/llm/gate-form.js';

test('the gate\'s question round-trips through the URL, defaults left out', () => {
  const form = readGateForm('?project=p&template=support&baseline=1&candidate=3&max_error_rate=0.05&max_p95_increase_pct=20&min_samples=10');
  assert.equal(form, { template: 'support', baseline: '1', candidate: '3', thresholds: { max_p95_increase_pct: '20', max_error_rate: '0.05' }, minSamples: '10' });
  assert.is(gateSearch('p', form), '?project=p&template=support&baseline=1&candidate=3&max_p95_increase_pct=20&max_error_rate=0.05&min_samples=10');
  assert.equal(readGateForm('?template=t&baseline=x&candidate=0&max_error_rate=lots&min_samples=-1'),
    { template: 't', baseline: 'previous', candidate: 'latest', thresholds: {}, minSamples: '' });
  assert.is(gateSearch('p', readGateForm('?template=t')), '?project=p&template=t');
});

test('the API path asks the same question of the named project; without a template there is none', () => {
  const path = gateApiPath('my app', readGateForm('?template=support&max_cost_increase_pct=15'))!;
  const u = new URL(path, 'http://x');
  assert.is(u.pathname, '/api/llm/projects/my%20app/gate');
  assert.equal(Object.fromEntries(u.searchParams), { template: 'support', baseline: 'previous', candidate: 'latest', max_cost_increase_pct: '15' });
  assert.is(gateApiPath('p', readGateForm('')), null);
});

test('the command line asks CI the same, with the key from the environment and never in the text', () => {
  const form = readGateForm('?template=support reply&baseline=2&candidate=3&max_error_rate_increase=0.02&min_score=0.8');
  assert.is(gateCommand('http://127.0.0.1:9095', form), [
    'npx vigil gate \\', '  --url http://127.0.0.1:9095 \\', '  --key "$VIGIL_PROJECT_KEY" \\', "  --template 'support reply' \\",
    '  --baseline 2 \\', '  --candidate 3 \\', '  --min-score 0.8 \\', '  --max-error-rate-increase 0.02',
  ].join('\n'));
  assert.not.match(gateCommand('http://h', readGateForm('?template=t')), /--baseline|--candidate|vk_/);
});

test('shell words are quoted only when they must be, quotes inside escaped', () => {
  assert.is(shellWord('support-reply_v2.1'), 'support-reply_v2.1');
  assert.is(shellWord("it's"), `'it'\\''s'`);
  assert.is(shellWord('$(rm -rf /)'), "'$(rm -rf /)'");
});

test('thresholds are numbers within their range', () => {
  assert.is(thresholdProblem('max_error_rate', ''), undefined);
  assert.is(thresholdProblem('max_error_rate', '0.05'), undefined);
  assert.match(thresholdProblem('max_error_rate', '5')!, /From 0 to 1/);
  assert.match(thresholdProblem('max_p95_increase_pct', '-3')!, /At least 0/);
  assert.is(thresholdProblem('max_p95_increase_pct', '250'), undefined);
  assert.match(thresholdProblem('min_score', 'high')!, /A number/);
});

test.run();
