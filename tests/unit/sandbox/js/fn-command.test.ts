import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CommandArgs } from '@vigil/plugin-sdk';
import { fnCommand, parseMemoryFlag, parseTimeoutFlag } from '../../../../sandbox/js/fn-command.js';
import { recordingIo } from '../../../support/command-io.js';
import { fixture } from '../../../support/paths.js';
import { runVigil } from '../../../support/vigil-process.js';

interface Ran { code: number; out: string; err: string }

async function vigilFn(positionals: string[], flags: CommandArgs['flags'] = {}): Promise<Ran> {
  const { io, out, err } = recordingIo(fixture('js-functions'));
  const code = await fnCommand.run({ positionals, flags }, io);
  return { code, out: out(), err: err() };
}

test('the command is `fn`, with the flags it documents', () => {
  assert.is(fnCommand.name, 'fn');
  assert.equal(Object.keys(fnCommand.flags ?? {}).sort(), ['input', 'json', 'memory', 'timeout']);
  assert.match(fnCommand.usage, /^vigil fn run FILE\.js/);
});

test('without the run subcommand it prints usage and exits 2', async () => {
  for (const positionals of [[], ['exec', 'x.js']]) {
    const r = await vigilFn(positionals);
    assert.is(r.code, 2);
    assert.match(r.err, /Usage: vigil fn run FILE\.js/);
    assert.is(r.out, '');
  }
});

test('runs a function with --input @FILE and prints its value as JSON', async () => {
  const r = await vigilFn(['run', 'score-answer.js'], { input: '@score-answer.input.json' });
  assert.is(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out), { score: 2 / 3, found: ['paris', 'france'] });
});

test('runs an async function with inline JSON input; console lines go to stderr', async () => {
  const r = await vigilFn(['run', 'async-lookup.js'], { input: '{"key":"b"}' });
  assert.is(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out), { key: 'b', value: 2 });
  assert.is(r.err, 'console: looking up b\n');
});

test('--json prints the whole result', async () => {
  const r = await vigilFn(['run', 'throws.js'], { input: '{}', json: true });
  assert.is(r.code, 1);
  const result = JSON.parse(r.out);
  assert.is(result.ok, false);
  assert.is(result.error.reason, 'thrown');
  assert.is(result.error.message, 'TypeError: input.text must be a string');
});

test('a function that loops forever: timeout error, exit 1', async () => {
  const r = await vigilFn(['run', 'loop-forever.js'], { timeout: '100ms' });
  assert.is(r.code, 1);
  assert.is(r.out, '');
  assert.match(r.err, /^vigil fn run: timeout: the call ran past its time limit of 100 ms/);
});

test('a throw prints the reason, the message and the stack naming the file', async () => {
  const r = await vigilFn(['run', 'throws.js'], { input: '{"text":5}' });
  assert.is(r.code, 1);
  assert.match(r.err, /^vigil fn run: thrown: TypeError: input\.text must be a string\n/);
  assert.match(r.err, /throws\.js:2/);
});

test('the real `vigil fn run` on a result nested 6,000 deep: invalid_output, exit 1, no stack overflow', async () => {
  const r = await runVigil(['fn', 'run', 'deep-result.js'], { cwd: fixture('js-functions') });
  assert.is(r.code, 1, r.stderr);
  assert.is(r.stdout, '');
  assert.match(r.stderr, /^vigil fn run: invalid_output: the result nests arrays and objects more than 256 levels deep/, r.stderr);
  assert.not.match(r.stderr, /call stack/);
});

const refused: Array<[string, string, RegExp]> = [
  ['reads-process.js', 'forbidden', /process is not available/],
  ['imports-fs.js', 'forbidden', /import of "node:fs"/],
  ['not-a-module.js', 'compile', /SyntaxError/],
];
for (const [file, reason, message] of refused) {
  test(`${file}: ${reason}, exit 1`, async () => {
    const r = await vigilFn(['run', file]);
    assert.is(r.code, 1);
    assert.ok(r.err.startsWith(`vigil fn run: ${reason}: `), r.err);
    assert.match(r.err, message);
  });
}

const usage: Array<[string, string[], CommandArgs['flags'], RegExp]> = [
  ['no file', ['run'], {}, /name the function file/],
  ['a missing file', ['run', 'nope.js'], {}, /cannot read the function file nope\.js/],
  ['two files', ['run', 'a.js', 'b.js'], {}, /one function file at a time/],
  ['input that is not JSON', ['run', 'score-answer.js'], { input: '{nope' }, /--input is not JSON/],
  ['input nested deeper than the host can serialise', ['run', 'score-answer.js'], { input: `${'['.repeat(6000)}${']'.repeat(6000)}` }, /--input: .*too deep or too large to serialise/],
  ['a missing input file', ['run', 'score-answer.js'], { input: '@missing.json' }, /cannot read the input file missing\.json/],
  ['a bad timeout', ['run', 'score-answer.js'], { timeout: 'soon' }, /--timeout takes a duration/],
  ['a bad memory limit', ['run', 'score-answer.js'], { memory: '2' }, /--memory takes a number of MB from 8/],
];
for (const [what, positionals, flags, message] of usage) {
  test(`${what}: usage error, exit 2`, async () => {
    const r = await vigilFn(positionals, flags);
    assert.is(r.code, 2);
    assert.match(r.err, message);
    assert.match(r.err, /Usage: /);
  });
}

test('--timeout reads ms and s; --memory reads MB', () => {
  assert.is(parseTimeoutFlag('250'), 250);
  assert.is(parseTimeoutFlag('250ms'), 250);
  assert.is(parseTimeoutFlag('1.5s'), 1500);
  for (const bad of ['0', '-5ms', '1m', '', '10 minutes', '700s']) assert.throws(() => parseTimeoutFlag(bad), /--timeout/);
  assert.is(parseMemoryFlag('64'), 64);
  for (const bad of ['7', '64mb', '1.5', '99999']) assert.throws(() => parseMemoryFlag(bad), /--memory/);
});

test.run();
