import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTool, ToolMissing } from '../../../../plugins/systools/run-tool.js';

test('a program past its time limit is ended and says so', async () => {
  const started = Date.now();
  const r = await runTool('sleep', ['30'], { timeoutMs: 200 });
  assert.is(r.timedOut, true);
  assert.is(r.code, null);
  assert.ok(Date.now() - started < 10_000, 'ended long before its 30 s');
});

test('stdin is given, output is kept up to the bound, the exit status is returned', async () => {
  const r = await runTool('sh', ['-c', 'cat; echo err >&2; exit 3'], { timeoutMs: 5_000, input: 'hello\n' });
  assert.equal({ code: r.code, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut }, { code: 3, stdout: 'hello\n', stderr: 'err\n', timedOut: false });
  const big = await runTool('head', ['-c', '100000', '/dev/zero'], { timeoutMs: 5_000, maxBytes: 1000 });
  assert.is(big.stdout.length, 1000);
});

test('a program that is not installed is ToolMissing, not a failure of the program', async () => {
  try {
    await runTool('vigil-no-such-program', [], { timeoutMs: 1_000 });
    assert.unreachable('it ran');
  } catch (err) {
    assert.instance(err, ToolMissing);
  }
});

test.run();
