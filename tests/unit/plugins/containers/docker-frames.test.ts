import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demultiplex, FrameDemuxer } from '../../../../plugins/containers/docker-frames.js';
import { frame } from '../../../support/fake-container-engines.js';

const stream = Buffer.concat([frame(1, Buffer.from('hello\n')), frame(2, Buffer.from('oops\n')), frame(1, Buffer.from('bye\n'))]);

test('a whole answer: the payloads in order, the headers gone', () => {
  assert.is(demultiplex(stream).toString(), 'hello\noops\nbye\n');
});

test('chunks split anywhere, inside a header or a payload, give the same text', () => {
  for (let size = 1; size <= stream.length; size++) {
    const d = new FrameDemuxer();
    const out: Buffer[] = [];
    for (let at = 0; at < stream.length; at += size) out.push(...d.push(stream.subarray(at, at + size)));
    assert.is(Buffer.concat(out).toString(), 'hello\noops\nbye\n', `chunks of ${size}`);
  }
});

test('an empty frame and a frame of non-ASCII bytes split in the middle of a character', () => {
  const text = 'grüße €\n';
  const bytes = Buffer.concat([frame(1, Buffer.alloc(0)), frame(1, Buffer.from(text))]);
  const d = new FrameDemuxer();
  const out = [...d.push(bytes.subarray(0, 13)), ...d.push(bytes.subarray(13))];
  assert.is(Buffer.concat(out).toString('utf8'), text);
});

test.run();
