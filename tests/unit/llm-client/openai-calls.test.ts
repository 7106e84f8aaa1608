// clients/node/src/openai-calls.ts: what a trace keeps of openai requests, answers and errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chatTokens, describeError, describeRequest, describeResult, responsesTokens } from '../../../clients/node/src/openai-calls.js';

test('requests: the messages or input as input; the rest (not model, not stream) as parameters', () => {
  const messages = [{ role: 'user', content: 'hi' }];
  assert.equal(describeRequest('chat.completions', { model: 'm', messages, temperature: 0, stream: true }),
    { model: 'm', stream: true, input: messages, parameters: { temperature: 0 } });
  assert.equal(describeRequest('responses', { model: 'm', input: 'q', instructions: 'be brief' }),
    { model: 'm', stream: false, input: { instructions: 'be brief', input: 'q' }, parameters: undefined });
  assert.equal(describeRequest('embeddings', { model: 'e', input: ['a'], dimensions: 8 }),
    { model: 'e', stream: false, input: ['a'], parameters: { dimensions: 8 } });
  assert.equal(describeRequest('chat.completions', undefined), { stream: false });
});

test('tokens: chat and responses usage, cached input as cache_read; absent fields stay absent', () => {
  assert.equal(chatTokens({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, prompt_tokens_details: { cached_tokens: 4 } }),
    { input: 10, output: 2, cache_read: 4, total: 12 });
  assert.equal(chatTokens({ prompt_tokens: 10 }), { input: 10 });
  assert.is(chatTokens(null), undefined);
  assert.equal(responsesTokens({ input_tokens: 7, output_tokens: 1, input_tokens_details: { cached_tokens: 0 }, total_tokens: 8 }),
    { input: 7, output: 1, cache_read: 0, total: 8 });
});

test('a completion with several choices records each message and finish reason', () => {
  const r = describeResult('chat.completions', {
    model: 'gpt', usage: { prompt_tokens: 1, completion_tokens: 2 },
    choices: [{ message: { role: 'assistant', content: 'a' }, finish_reason: 'stop' }, { message: { role: 'assistant', content: 'b' }, finish_reason: 'length' }],
  });
  assert.equal(r.output, [{ role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' }]);
  assert.equal(r.metadata, { finish_reason: ['stop', 'length'] });
});

test('a failed response is an error trace; a response with tool calls keeps the output items', () => {
  const failed = describeResult('responses', { model: 'm', status: 'failed', error: { message: 'server_error' }, output: [] });
  assert.is(failed.status, 'error');
  assert.is(failed.error, 'server_error');
  const call = { type: 'function_call', name: 'f', arguments: '{}' };
  assert.equal(describeResult('responses', { model: 'm', status: 'completed', output: [call], output_text: '' }).output, [call]);
});

test('embeddings: count and dimensions, not the vectors', () => {
  assert.equal(describeResult('embeddings', { model: 'e', data: [{ embedding: new Float32Array(5) }, { embedding: [1, 2, 3, 4, 5] }], usage: { prompt_tokens: 3, total_tokens: 3 } }),
    { model: 'e', tokens: { input: 3, total: 3 }, output: { embeddings: 2, dimensions: 5 }, metadata: {} });
});

test('errors: openai\'s class name (its name property is only "Error"), status, type and code', () => {
  class RateLimitError extends Error { status = 429; type = 'rate_limit'; code = 'rate_limit_exceeded'; }
  assert.equal(describeError(new RateLimitError('slow down')),
    { status: 'error', error: 'RateLimitError: slow down', metadata: { http_status: 429, error_type: 'rate_limit', error_code: 'rate_limit_exceeded' } });
  assert.equal(describeError('a string'), { status: 'error', error: 'Error: a string', metadata: {} });
});

test.run();
