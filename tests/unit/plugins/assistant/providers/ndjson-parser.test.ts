import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NdjsonParser } from '../../../../../plugins/assistant/providers/ndjson-parser.js';

test('lines cut anywhere come out whole, the last one without its newline too', () => {
  const text = '{"message":{"content":"Hel"},"done":false}\n\n{"message":{"content":"lo"},"done":false}\n{"done":true}';
  for (let cut = 1; cut < text.length; cut++) {
    const p = new NdjsonParser();
    const values = [...p.feed(text.slice(0, cut)), ...p.feed(text.slice(cut)), ...p.end()];
    assert.is(values.length, 3, `cut at ${cut}`);
    assert.equal(values[2], { done: true });
  }
});

test('a line that is not JSON, and an endless line, break the stream', () => {
  assert.throws(() => new NdjsonParser().feed('not json\n'), /not JSON/);
  const p = new NdjsonParser();
  assert.throws(() => { for (let i = 0; i < 1100; i++) p.feed('x'.repeat(1000)); }, /passed/);
});

test.run();
