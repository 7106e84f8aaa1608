import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { curlCommand, shellQuote } from '../../../../../ui/src/areas/gateway/curl-command.js';
import type { GatewayRecord } from '../../../../../ui/src/areas/gateway/gateway-api.js';

const record = (over: Partial<GatewayRecord>): GatewayRecord => ({
  id: 'r1', time: 0, method: 'POST', path: '/api/pay', route: [], query: {}, status: 200, duration_ms: 1, headers: {}, response_headers: {},
  request_body: null, response_body: null, labels: {}, matched_rules: [], tokens: null, sampled: true, truncated: false, partial: false, dropped_reason: null, error: null,
  ...over,
});

test('shellQuote: one word whatever the text holds', () => {
  const text = `it's "quoted" $HOME \`cmd\` \\ [x]`;
  assert.is(execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`]).toString(), text);
});

test('curlCommand: method, path, query, headers and body as captured; masked values left masked and said so', () => {
  const cmd = curlCommand(record({
    path: '/api/pay/[REDACTED]', query: { token: '[REDACTED]', page: ['1', '2'] },
    headers: { Host: 'x', 'Content-Length': '9', Authorization: '[REDACTED]', 'X-Note': "it's" },
    request_body: { card: '[REDACTED]', amount: 12 },
  }), 'http://127.0.0.1:8080/');
  assert.is(cmd, [
    '# [REDACTED] marks values the policy masked before storage (query token, path, header Authorization, body): put the real ones back to replay it.',
    "curl -g -X POST 'http://127.0.0.1:8080/api/pay/[REDACTED]?token=%5BREDACTED%5D&page=1&page=2' \\",
    "  -H 'Authorization: [REDACTED]' \\",
    "  -H 'X-Note: it'\\''s' \\",
    `  --data-raw '{"card":"[REDACTED]","amount":12}'`,
  ].join('\n'));
});

test('curlCommand: a record without headers or body says what is missing', () => {
  const cmd = curlCommand(record({ headers: null, method: 'PUT' }), 'http://gw');
  assert.is(cmd, "# The headers were not captured (a rule restricts them).\n# The body was not kept (empty, restricted or sampled out).\ncurl -g -X PUT 'http://gw/api/pay'");
  assert.is(curlCommand(record({ method: 'GET' }), 'http://gw'), "curl -g -X GET 'http://gw/api/pay'");
});

test.run();
