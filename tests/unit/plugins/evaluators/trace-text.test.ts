import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderRubric, unknownPlaceholders } from '../../../../plugins/evaluators/rubric-template.js';
import { conversationText, plainText } from '../../../../plugins/evaluators/trace-text.js';

test('chat messages become role lines; content parts keep text and mark images; tool calls are shown', () => {
  const input = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:…' } }] },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
  ];
  assert.is(conversationText(input), 'system: Be brief.\n\nuser: What is this?\n[image]\n\nassistant: called lookup({"q":"x"})');
  assert.is(plainText({ role: 'assistant', content: 'Paris.' }), 'Paris.');
  assert.is(plainText([{ role: 'assistant', content: 'A' }, { role: 'assistant', content: 'B' }]), 'A\n\nB');
  assert.is(plainText('just text'), 'just text');
  assert.is(plainText(null), '');
  assert.is(plainText({ answer: 42 }), '{\n  "answer": 42\n}');
  assert.is(conversationText({ messages: [{ role: 'user', content: 'hi' }] }), 'user: hi');
});

test('placeholders: known names fill, metadata by path (objects as JSON, missing empty), spaces allowed', () => {
  const text = renderRubric('Q: {{ input }} A: {{output}} E: {{expected}} T: {{metadata.user.tier}} U: {{metadata.user}} M: {{metadata.nope.deeper}}', {
    input: [{ role: 'user', content: 'q' }], output: { role: 'assistant', content: 'a' }, expected: 'e', metadata: { user: { tier: 'gold' } },
  });
  assert.is(text, 'Q: user: q A: assistant: a E: e T: gold U: {"tier":"gold"} M: ');
  assert.equal(unknownPlaceholders('{{input}} {{outputs}} {{metadata.x}} {{ expected }} {{trace}}'), ['outputs', 'trace']);
});

test.run();
