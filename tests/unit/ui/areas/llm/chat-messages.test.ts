import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { countMarkers, prettyArguments, toConversation } from '../../../../../ui/src/areas/llm/chat-messages.js';

const roles = (v: unknown, role: 'user' | 'assistant' = 'user') => toConversation(v, role)?.map((m) => [m.role, m.text]);

test('OpenAI chat messages, with text parts, names, tool calls and tool answers', () => {
  const c = toConversation([
    { role: 'system', content: 'Be brief.' },
    { role: 'user', name: 'ada', content: [{ type: 'text', text: 'Look at this' }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }] },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"id":7}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"status":"shipped"}' },
  ], 'user')!;
  assert.equal(c.map((m) => m.role), ['system', 'user', 'assistant', 'tool']);
  assert.is(c[1].name, 'ada');
  assert.is(c[1].text, 'Look at this');
  assert.equal(c[1].attachments, ['image_url']);
  assert.equal(c[2].toolCalls, [{ name: 'lookup', arguments: '{"id":7}', id: 'call_1' }]);
  assert.is(c[2].text, '');
  assert.is(c[3].toolCallId, 'call_1');
});

test('outputs: one message, a chat completion, the Responses API, Anthropic blocks, Gemini parts, plain text', () => {
  assert.equal(roles({ role: 'assistant', content: 'Paris.' }, 'assistant'), [['assistant', 'Paris.']]);
  assert.equal(roles({ id: 'x', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' } }] }, 'assistant'), [['assistant', 'Hi']]);
  assert.equal(roles({ output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done' }] }] }, 'assistant'), [['assistant', 'Done']]);
  const anthropic = toConversation([{ role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'tu_1', name: 'search', input: { q: 'x' } }] }], 'assistant')!;
  assert.is(anthropic[0].text, 'Let me check.');
  assert.equal(anthropic[0].toolCalls, [{ name: 'search', arguments: '{\n  "q": "x"\n}', id: 'tu_1' }]);
  assert.equal(roles([{ role: 'model', parts: [{ text: 'Hola' }] }]), [['assistant', 'Hola']]);
  assert.equal(roles('Just text', 'assistant'), [['assistant', 'Just text']]);
  assert.equal(roles('Just text'), [['user', 'Just text']]);
});

test('inputs: a request body with messages, and Anthropic\'s system beside them', () => {
  assert.equal(roles({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }), [['user', 'Hi']]);
  assert.equal(roles({ system: 'You summarise.', messages: [{ role: 'user', content: [{ type: 'text', text: 'Ticket' }] }] }), [['system', 'You summarise.'], ['user', 'Ticket']]);
});

test('what is not a conversation is null, and the page shows the JSON', () => {
  for (const v of [null, undefined, '', 42, [], [1, 2], { a: 1 }, [{ role: 'user', content: 'ok' }, { nope: true }], { role: 'user', content: { weird: 1 } },
    [{ role: 'assistant', tool_calls: [{ type: 'function' }] }], { output: [{ type: 'function_call', name: 'f' }] }]) {
    assert.is(toConversation(v, 'user'), null, JSON.stringify(v));
  }
});

test('keys a message carries beyond the conversation are kept, so a masked value there stays on screen', () => {
  const [m] = toConversation([{ role: 'user', content: 'hi', ssn: '[REDACTED]', audio: null }], 'user')!;
  assert.equal(m.extra, { ssn: '[REDACTED]' });
});

test('redaction markers are counted inside strings too, everywhere in a value', () => {
  assert.is(countMarkers('[REDACTED]'), 1);
  assert.is(countMarkers({ a: 'card [REDACTED] and [REDACTED]', b: ['[REDACTED]', 3, null], c: { d: 'clean' } }), 3);
  assert.is(countMarkers(null), 0);
});

test('tool arguments pretty-print when they are JSON objects and stay as sent otherwise', () => {
  assert.is(prettyArguments('{"a":1}'), '{\n  "a": 1\n}');
  assert.is(prettyArguments('{"a":'), '{"a":');
  assert.is(prettyArguments('"text"'), '"text"');
});

test.run();
