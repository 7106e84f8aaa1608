import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { compilePolicy } from '../../../../policies/compile.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import { maskGuestLabels, redactedValues } from '../../../../gateway/govern/guest-labels.js';
import type { RawExchange } from '../../../../gateway/govern/types.js';
import { governedJsonBody } from '../../../../gateway/govern/wasm-rule-modules.js';

const rules: RuleConfig[] = [{
  name: 'r', match: { path: '/**' }, labels: { team: 'header:X-Team' },
  redact: { headers: ['Authorization', 'Set-Cookie'], query_params: ['token'], json_fields: ['$.card', '$.**.pin'] },
}];
const decision = compilePolicy({ rules }).decide('POST', '/x');
const decode = governedJsonBody();

function exchange(over: Partial<RawExchange> = {}): RawExchange {
  return {
    id: 'e', time: 1, method: 'POST', target: '/x?token=tok-123&page=2&TOKEN=tok-456', path: '/x', ruleIndexes: [0], labels: { team: 'pay' },
    requestHeaders: ['Content-Type', 'application/json', 'authorization', 'Bearer abc.def', 'X-Team', 'pay'],
    responseHeaders: ['Content-Type', 'application/json', 'Set-Cookie', 'sid=s3cr3t'],
    status: 200, durationMs: 1,
    requestBody: Buffer.from(JSON.stringify({ card: { number: '4111111111111111', exp: 1229 }, nested: [{ pin: '0042' }], note: 'hello' })),
    requestTruncated: false,
    responseBody: Buffer.from(JSON.stringify({ ok: true, pin: 77 })), responseTruncated: false,
    ...over,
  };
}

test('redacted values: redacted header and query values, and every leaf a JSON path replaces, in both bodies', () => {
  const values = redactedValues(exchange(), decision, decode);
  assert.equal([...values].sort(), ['0042', '1229', '4111111111111111', '77', 'Bearer abc.def', 'sid=s3cr3t', 'tok-123', 'tok-456'].sort());
  assert.not.ok(values.has('hello'));
  assert.not.ok(values.has('pay'), 'X-Team is not redacted');
});

test('compressed bodies are read; restricted or non-JSON bodies add nothing', () => {
  const gz = exchange({
    requestHeaders: ['Content-Type', 'application/json', 'Content-Encoding', 'gzip'],
    requestBody: gzipSync(Buffer.from('{"card":"5555555555554444"}')),
  });
  assert.ok(redactedValues(gz, decision, decode).has('5555555555554444'));
  const restricted = compilePolicy({ rules: [...rules, { name: 'x', match: { path: '/**' }, restrict: ['request_body'] }] }).decide('POST', '/x');
  assert.not.ok(redactedValues(exchange(), restricted, decode).has('4111111111111111'));
  assert.not.ok(redactedValues(exchange({ requestBody: Buffer.from('{"card": ') }), decision, decode).has('4111111111111111'));
});

test('a guest label holding or containing a redacted value holds the marker; the request\'s own labels are never touched', () => {
  const labels = {
    team: 'pay',
    copied: 'Bearer abc.def',
    inside: 'card=4111111111111111;',
    short: 'x77y', // 77 is redacted, but too short to be looked for inside a label
    harmless: 'hello',
    tiny: 'page 2',
  };
  const out = maskGuestLabels(labels, { team: 'pay' }, exchange(), decision, decode);
  assert.equal(out, { team: 'pay', copied: '[REDACTED]', inside: '[REDACTED]', short: 'x77y', harmless: 'hello', tiny: 'page 2' });
  assert.is(labels.copied, 'Bearer abc.def', 'the input is not changed');
});

test('values shorter than three characters count only as a whole label', () => {
  const d = compilePolicy({ rules: [{ name: 'r', match: { path: '/**' }, redact: { json_fields: ['$.n'] } }] }).decide('POST', '/x');
  const e = exchange({ requestBody: Buffer.from('{"n":"7"}'), labels: {} });
  assert.equal(maskGuestLabels({ a: '7', b: 'v7' }, {}, e, d, decode), { a: '[REDACTED]', b: 'v7' });
});

test('nothing added or nothing redacted: the same object back', () => {
  const same = { team: 'pay' };
  assert.is(maskGuestLabels(same, { team: 'pay' }, exchange(), decision, decode), same);
  const open = compilePolicy({ rules: [{ name: 'r', match: { path: '/**' } }] }).decide('POST', '/x');
  const added = { k: 'Bearer abc.def' };
  assert.is(maskGuestLabels(added, {}, exchange(), open, decode), added);
});

test.run();
