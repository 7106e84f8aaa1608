import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { binLabel, emptyForm, providerKeyText, readEvalForm, scopeText, scoreHistogram } from '../../../../../ui/src/areas/llm/evals-api.js';

test('the histogram counts scores in tenths, 1 in the last band, failures (null) not at all', () => {
  assert.equal(scoreHistogram([0, 0.05, 0.1, 0.55, 0.99, 1, null]), [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
  assert.is(binLabel(0), '0.0–0.1');
  assert.is(binLabel(9), '0.9–1.0');
});

test('a provider\'s key is said by where it comes from, never shown', () => {
  const p = { name: 'judge', base_url: 'http://x', model: 'm' };
  assert.is(providerKeyText({ ...p, has_key: true, key_env: 'OPENAI_API_KEY' }), 'from env OPENAI_API_KEY');
  assert.is(providerKeyText({ ...p, has_key: false, key_env: 'OPENAI_API_KEY' }), 'from env OPENAI_API_KEY (not set)');
  assert.is(providerKeyText({ ...p, has_key: true, key_env: null }), 'set');
  assert.is(providerKeyText({ ...p, has_key: false, key_env: null }), 'no key');
});

test('the form sends what the API takes, per type, and names each wrong field', () => {
  const form = { ...emptyForm(), name: ' Short ', sampleRate: '0.5', template: 'answer', versionMin: '2' };
  assert.equal(readEvalForm(form).body, {
    name: 'Short', type: 'custom_function', sample_rate: 0.5, template: 'answer', versions: { min: 2 }, on_missing_output: 'skip', settings: { source: form.source },
  });
  assert.is(readEvalForm({ ...form, onMissingOutput: 'score' }).body?.on_missing_output, 'score');
  const judge = readEvalForm({ ...emptyForm([{ name: 'judge', base_url: '', model: 'm', has_key: true, key_env: null }]), name: 'J', type: 'llm_judge' });
  assert.equal(judge.body?.settings, { provider: 'judge', rubric: emptyForm().rubric });
  const bad = readEvalForm({ ...emptyForm(), name: '', sampleRate: '2', versionMin: '3' });
  assert.is(bad.body, undefined);
  assert.equal(Object.keys(bad.problems).sort(), ['name', 'sampleRate', 'template']);
  assert.equal(readEvalForm({ ...emptyForm(), name: 'S', type: 'semantic_similarity', golden: 'a\n\n b \n' }).body?.settings, { golden: ['a', 'b'] });
});

test('scope in words', () => {
  assert.is(scopeText({ template: null, versions: null }), 'all traces');
  assert.is(scopeText({ template: 'answer', versions: { min: 2, max: 3 } }), 'answer v2–v3');
  assert.is(scopeText({ template: 'answer', versions: { min: 2 } }), 'answer v2+');
});

test.run();
