import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyIsolateError, classifyThrown, guestStack } from '../../../../sandbox/js/classify-guest-error.js';
import { guestRunnerFilename } from '../../../../sandbox/js/guest-runner.js';

const limits = { timeoutMs: 250, memoryLimitMb: 64 };
const thrown = (name: string, message: string, stack = ''): ReturnType<typeof classifyThrown> =>
  classifyThrown({ name, message, stack }, 'export default () => 1');

for (const name of ['process', 'require', 'Buffer', 'setTimeout', 'fetch', 'WebAssembly', '__dirname']) {
  test(`ReferenceError for ${name} is forbidden, and the message says what a function has instead`, () => {
    const c = thrown('ReferenceError', `${name} is not defined`);
    assert.is(c.reason, 'forbidden');
    assert.ok(c.message.startsWith(`${name} is not available`), c.message);
    assert.ok(c.message.includes('returns JSON'), c.message);
  });
}

test('ReferenceError for a name of the user is a plain throw', () => {
  const c = thrown('ReferenceError', 'scroe is not defined');
  assert.is(c.reason, 'thrown');
  assert.is(c.message, 'ReferenceError: scroe is not defined');
});

test('another error kind naming process is not forbidden', () => {
  assert.is(thrown('TypeError', 'process is not defined').reason, 'thrown');
});

test("V8's import() rejection is forbidden only when the source calls import()", () => {
  const d = { name: 'Error', message: 'Not supported', stack: '' };
  assert.is(classifyThrown(d, 'export default async () => import ("fs")').reason, 'forbidden');
  assert.is(classifyThrown(d, 'export default () => { throw new Error("Not supported") }').reason, 'thrown');
});

test('a failed ArrayBuffer allocation is a memory failure', () => {
  assert.is(thrown('RangeError', 'Array buffer allocation failed').reason, 'memory');
  assert.is(thrown('RangeError', 'Maximum call stack size exceeded').reason, 'thrown');
});

test('a thrown primitive keeps its text without a name', () => {
  assert.is(thrown('', 'plain').message, 'plain');
});

test('stacks lose the runner frames and keep the user file', () => {
  const stack = ['TypeError: x', '    at default (fn.js:1:2)', `    at run (${guestRunnerFilename}:9:9)`].join('\n');
  assert.is(guestStack(stack), 'TypeError: x\n    at default (fn.js:1:2)');
  assert.is(guestStack(`TypeError: x\n    at run (${guestRunnerFilename}:9:9)`), undefined);
  assert.is(guestStack(undefined), undefined);
});

test('isolated-vm timeouts, memory disposal and disposal are told apart', () => {
  assert.equal(classifyIsolateError(new Error('Script execution timed out.'), '', 'run', limits), { reason: 'timeout', message: 'the call ran past its time limit of 250 ms' });
  assert.equal(classifyIsolateError(new Error('Isolate was disposed during execution due to memory limit'), '', 'run', limits).reason, 'memory');
  assert.ok(classifyIsolateError(new Error('Isolate was disposed during execution due to memory limit'), '', 'run', limits).message.includes('64 MB'));
  assert.is(classifyIsolateError(new Error('Isolate was disposed during execution'), '', 'run', limits).reason, 'crash');
});

test('a compile-phase error is a compile failure with its location', () => {
  const err = Object.assign(new SyntaxError('Unexpected end of input [fn.js:1:23]'), { name: 'SyntaxError' });
  assert.equal(classifyIsolateError(err, '', 'compile', limits), { reason: 'compile', message: 'SyntaxError: Unexpected end of input [fn.js:1:23]' });
});

test('a run-phase error from top-level code is classified like a throw', () => {
  const err = Object.assign(new Error('process is not defined'), { name: 'ReferenceError' });
  assert.is(classifyIsolateError(err, '', 'run', limits).reason, 'forbidden');
  assert.is(classifyIsolateError('a string', '', 'run', limits).message, 'a string');
});

test.run();
