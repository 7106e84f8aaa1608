// The LLM warm-up without the CLI: replies read leniently (`{"value": V}`, bare JSON, fenced), one request per distinct
// schema shared by the operations that answer it, and an invalid reply reported with where it fails.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { replyValue, writeLlmExamples } from '../../../../../plugins/apitools/mock/llm-examples.js';
import { createMockAjv, problems } from '../../../../../plugins/apitools/mock/mock-ajv.js';
import { startFakeOpenAI } from '../../../../support/fake-openai.js';

test('replies: the value inside {"value": …}, a bare JSON value, code fences tolerated; prose is a SyntaxError', () => {
  assert.equal(replyValue('{"value": [1, 2]}'), [1, 2]);
  assert.equal(replyValue('{"name": "Ann", "value": 3}'), { name: 'Ann', value: 3 });
  assert.equal(replyValue('```json\n{"value": {"a": 1}}\n```'), { a: 1 });
  assert.throws(() => replyValue('Here is your JSON: {}'), SyntaxError);
});

test('one request per distinct schema; the example is shared; an invalid one is a fallback naming the path', async () => {
  const user = { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } } };
  const count = { type: 'integer', minimum: 0 };
  const fake = await startFakeOpenAI({
    delayMs: 1,
    chat: (body) => (String(body.messages.at(-1).content).includes('"email"') ? { text: '{"value": {"email": "ann@example.com"}}' } : { text: '{"value": -4}' }),
  });
  const ajv = createMockAjv();
  try {
    const { examples, report } = await writeLlmExamples([
      { key: 'GET /users/{id} 200', operation: 'GET /users/{id}', status: '200', schema: user },
      { key: 'PUT /users/{id} 200', operation: 'PUT /users/{id}', status: '200', schema: structuredClone(user) },
      { key: 'GET /count 200', operation: 'GET /count', status: '200', schema: count },
    ], { baseUrl: fake.baseURL, model: 'm', timeoutMs: 5000, seed: 1, concurrency: 2, attempts: 1 }, (schema, value) => {
      const validate = ajv.compile(schema);
      return validate(value) ? [] : problems(validate.errors, '');
    });
    assert.is(fake.requests.length, 2);
    assert.equal(report, { asked: 2, used: 1, fellBack: [{ key: 'GET /count 200', reason: 'does not match the schema: / must be >= 0' }] });
    assert.equal(examples.get('GET /users/{id} 200'), { email: 'ann@example.com' });
    assert.equal(examples.get('PUT /users/{id} 200'), { email: 'ann@example.com' });
    assert.not.ok(examples.has('GET /count 200'));
  } finally {
    await fake.close();
  }
});

test.run();
