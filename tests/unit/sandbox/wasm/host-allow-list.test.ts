import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hostAllowed } from '../../../../sandbox/wasm/host-allow-list.js';

test('exact names match case-insensitively', () => {
  assert.ok(hostAllowed('api.example.com', ['api.example.com']));
  assert.ok(hostAllowed('API.Example.com', ['api.example.COM']));
  assert.not.ok(hostAllowed('api.example.com.evil.net', ['api.example.com']));
  assert.not.ok(hostAllowed('example.com', []));
});

test('a * stands for one label part, never a dot', () => {
  assert.ok(hostAllowed('api.example.com', ['*.example.com']));
  assert.not.ok(hostAllowed('example.com', ['*.example.com']));
  assert.not.ok(hostAllowed('a.b.example.com', ['*.example.com']));
  assert.ok(hostAllowed('eu-1.api.example.com', ['*.api.example.com']));
});

test('regex metacharacters in entries are literal', () => {
  assert.not.ok(hostAllowed('apixexample.com', ['api.example.com']));
  assert.not.ok(hostAllowed('a', ['(a|b)']));
});

test.run();
