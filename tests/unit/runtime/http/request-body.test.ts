import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isJsonContentType } from '@vigil/plugin-sdk';
import { parseJsonBody } from '../../../../runtime/http/request-body.js';

test('JSON media types: application/json and +json, UTF-8 only', () => {
  for (const ok of ['application/json', 'application/json; charset=utf-8', 'Application/JSON; charset="UTF-8"', 'application/problem+json']) {
    assert.ok(isJsonContentType(ok), ok);
  }
  for (const bad of [undefined, '', 'text/plain', 'application/json; charset=latin1', 'application/jsonx', 'text/json']) {
    assert.not.ok(isJsonContentType(bad), String(bad));
  }
});

test('parseJsonBody: 415 for other media types, 400 for bad UTF-8 or bad JSON', () => {
  const statusOf = (fn: () => unknown): number | undefined => {
    try { fn(); } catch (e) { return (e as { status?: number }).status; }
    return undefined;
  };
  assert.equal(parseJsonBody(Buffer.from('{"a":[1,"é"]}'), 'application/json'), { a: [1, 'é'] });
  assert.is(statusOf(() => parseJsonBody(Buffer.from('{}'), 'text/plain')), 415);
  assert.is(statusOf(() => parseJsonBody(Buffer.from('{}'), undefined)), 415);
  assert.is(statusOf(() => parseJsonBody(Buffer.from([0x22, 0xc3, 0x28, 0x22]), 'application/json')), 400);
  assert.is(statusOf(() => parseJsonBody(Buffer.from('{"a":'), 'application/json')), 400);
  assert.is(statusOf(() => parseJsonBody(Buffer.from('NaN'), 'application/json')), 400);
});

test.run();
