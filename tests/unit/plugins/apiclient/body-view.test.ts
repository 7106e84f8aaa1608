import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { valueAt, viewBody, type ViewTask } from '../../../../plugins/apiclient/body-view.js';

const task = (body: string | Buffer, over: Partial<ViewTask> = {}): ViewTask => ({
  body: new Uint8Array(typeof body === 'string' ? Buffer.from(body) : body), contentType: 'application/json', complete: true, displayBytes: 1024,
  extract: [], headers: [['X-Session', 's-1']], status: 201, ...over,
});

test('JSON paths: $. and bare, dots and brackets, quoted keys', () => {
  const doc = { data: { token: 't', items: [{ id: 7 }], 'odd key': 1 } };
  assert.is(valueAt(doc, '$.data.token'), 't');
  assert.is(valueAt(doc, 'data.items[0].id'), 7);
  assert.is(valueAt(doc, "$.data['odd key']"), 1);
  assert.is(valueAt(doc, '$.data.nope.deeper'), undefined);
});

test('a JSON body is pretty-printed and extractions fill from JSON, a header and the status', () => {
  const r = viewBody(task('{"data":{"token":"abc","n":[1,2]}}', {
    extract: [{ variable: 't', from: 'json', path: '$.data.token' }, { variable: 'n', from: 'json', path: 'data.n' }, { variable: 's', from: 'header', path: 'x-session' },
      { variable: 'code', from: 'status', path: '' }, { variable: 'gone', from: 'json', path: '$.nope' }],
  }));
  assert.is(r.view.pretty, '{\n  "data": {\n    "token": "abc",\n    "n": [\n      1,\n      2\n    ]\n  }\n}');
  assert.equal(r.extracted, { t: 'abc', n: '[1,2]', s: 's-1', code: '201' });
  assert.equal(r.failed, ['gone']);
});

test('a cut body is not pretty-printed; the shown text ends on a character boundary', () => {
  const body = `{"a":"${'é'.repeat(1000)}"}`;
  const r = viewBody(task(body, { complete: false, displayBytes: 101 }));
  assert.is(r.view.pretty, null);
  assert.is(r.view.shown_bytes, 100);
  assert.ok(!r.view.text.includes('\ufffd'));
});

test('binary bodies are flagged and not shown', () => {
  const r = viewBody(task(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), { contentType: 'image/png' }));
  assert.is(r.view.binary, true);
  assert.is(r.view.text, '');
});

test.run();
