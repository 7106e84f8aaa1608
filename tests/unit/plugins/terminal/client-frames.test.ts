import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeCommand, parseClientFrame } from '../../../../plugins/terminal/client-frames.js';

test('the three kinds of message parse', () => {
  assert.equal(parseClientFrame('ils -la\r'), { kind: 'input', data: 'ls -la\r' });
  assert.equal(parseClientFrame('i'), { kind: 'input', data: '' });
  assert.equal(parseClientFrame('r{"cols":120,"rows":40}'), { kind: 'resize', cols: 120, rows: 40 });
  assert.equal(parseClientFrame('a4096'), { kind: 'ack', bytes: 4096 });
});

test('malformed messages say what is wrong', () => {
  for (const bad of ['', 'x', 'a', 'a-5', 'a1.5', 'a12345678901', 'r', 'r{', 'r{"cols":0,"rows":10}', 'r{"cols":80,"rows":501}', 'r{"cols":"80","rows":24}', 'rnull']) {
    assert.type(parseClientFrame(bad), 'string', JSON.stringify(bad));
  }
});

test('the first command decodes from base64 (standard or URL alphabet) and is bounded', () => {
  assert.equal(decodeCommand(null), {});
  assert.equal(decodeCommand(''), {});
  assert.equal(decodeCommand(Buffer.from('htop').toString('base64')), { command: 'htop' });
  assert.equal(decodeCommand(Buffer.from('ls ~/é?>').toString('base64url')), { command: 'ls ~/é?>' });
  assert.type(decodeCommand('not base64!'), 'string');
  assert.type(decodeCommand(Buffer.alloc(5000, 0x61).toString('base64')), 'string', 'over 4 KiB');
  assert.type(decodeCommand(Buffer.from([0xff, 0xfe]).toString('base64')), 'string', 'not UTF-8');
  assert.type(decodeCommand(Buffer.from('a\0b').toString('base64')), 'string', 'a NUL');
});

test.run();
