import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_PROPOSALS, parseProposals } from '../../../../plugins/assistant/proposals.js';

const block = (json: string) => `\`\`\`vigil-action\n${json}\n\`\`\``;

test('a known action with a fitting target becomes a card that opens its page', () => {
  const [p, q] = parseProposals(`Try this:\n${block('{"action":"restart_unit","unit":"nginx.service","reason":"it failed"}')}\nthen ${block('{"action":"clean_apt_cache"}')}`);
  assert.equal(p, {
    action: 'restart_unit', target: 'nginx.service', reason: 'it failed', label: 'Restart nginx.service', page: 'Services',
    path: '/host/services?q=nginx.service', source: '{"action":"restart_unit","unit":"nginx.service","reason":"it failed"}',
  });
  assert.is(q.path, '/host/storage?tab=cleanup');
  assert.is(q.target, null);
});

test('unknown actions, extra keys, bad targets, bad JSON and other fences are not proposals', () => {
  for (const text of [
    block('{"action":"rm_rf","path":"/"}'),
    block('{"action":"restart_unit","unit":"nginx; rm -rf /"}'),
    block('{"action":"restart_unit","unit":"x","command":"sh"}'),
    block('{"action":"restart_unit"}'),
    block('{"action":"clean_apt_cache","reason":42}'),
    block('{"action":"toString"}'),
    block('not json'),
    block('["restart_unit"]'),
    '```json\n{"action":"restart_unit","unit":"a.service"}\n```',
    '{"action":"restart_unit","unit":"a.service"}',
  ]) assert.equal(parseProposals(text), [], text);
});

test('at most MAX_PROPOSALS cards come from one answer', () => {
  const many = Array.from({ length: 9 }, (_, i) => block(`{"action":"show_logs","query":"err${i}"}`)).join('\n');
  assert.is(parseProposals(many).length, MAX_PROPOSALS);
  assert.is(parseProposals(many)[0].path, '/host/logs?q=err0');
});

test.run();
