import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AckCounter, describeClose, INPUT_PIECE_CHARS, inputFrames, terminalUrl } from '../../../../../../ui/src/areas/host/terminal/terminal-connection.js';

test('the socket is on the page\'s own origin, with the folder and the command as base64 of UTF-8', () => {
  const url = new URL(terminalUrl({ protocol: 'https:', host: 'box:9095' }, { cwd: '/srv/app', command: 'ls é', cols: 100, rows: 30 }));
  assert.is(url.protocol, 'wss:');
  assert.is(url.host, 'box:9095');
  assert.is(url.pathname, '/ws/term');
  assert.is(url.searchParams.get('cwd'), '/srv/app');
  assert.is(Buffer.from(url.searchParams.get('cmd')!, 'base64').toString('utf8'), 'ls é');
  assert.is(url.searchParams.get('cols'), '100');
  assert.is(new URL(terminalUrl({ protocol: 'http:', host: 'h' }, { cols: 1, rows: 1 })).protocol, 'ws:');
});

test('a large paste goes in pieces under the frame limit, never splitting a surrogate pair', () => {
  const paste = `${'x'.repeat(INPUT_PIECE_CHARS - 1)}😀${'y'.repeat(40_000)}`;
  const frames = inputFrames(paste);
  assert.ok(frames.length > 2);
  assert.ok(frames.every((f) => f.startsWith('i') && Buffer.byteLength(f) < 64 * 1024));
  assert.is(frames.map((f) => f.slice(1)).join(''), paste);
  assert.ok(frames[1].startsWith('i😀'), 'the emoji moved whole to the next piece');
  assert.equal(inputFrames(''), []);
});

test('acknowledgements go in batches', () => {
  const acks = new AckCounter(4096);
  assert.is(acks.add(4000), 0);
  assert.is(acks.add(200), 4200);
  assert.is(acks.add(10), 0);
});

test('close codes read as sentences', () => {
  assert.is(describeClose(4001, 'VIGIL_ERR_TERMINAL_FOLDER: folder /x does not exist'), 'folder /x does not exist');
  assert.match(describeClose(4000, 'VIGIL_ERR_TERMINAL_IDLE: idle for 1800 s'), /idle/);
  assert.is(describeClose(1000, 'the shell exited with 0'), 'the shell exited with 0');
  assert.is(describeClose(1006, ''), 'the connection was lost');
});

test.run();
