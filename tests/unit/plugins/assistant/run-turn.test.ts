import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cutToBytes, runTurn } from '../../../../plugins/assistant/run-turn.js';
import { ProviderFailure, type Provider } from '../../../../plugins/assistant/providers/types.js';

const limits = { firstTokenMs: 5000, totalMs: 10_000, maxAnswerBytes: 10 };
function provider(pieces: string[], fail?: string): Provider & { aborted: boolean } {
  const p = {
    endpoint: 'test://provider', aborted: false,
    async *stream(_m: unknown, signal: AbortSignal) {
      signal.addEventListener('abort', () => { p.aborted = true; });
      for (const piece of pieces) yield piece;
      if (fail) throw new ProviderFailure(fail);
    },
  };
  return p;
}

test('an answer within the cap ends done, every piece emitted', async () => {
  const got: string[] = [];
  const r = await runTurn(provider(['ab', 'cd']), [], limits, new AbortController().signal, (t) => got.push(t));
  assert.equal(got, ['ab', 'cd']);
  assert.equal(r, { outcome: 'done', message: null, answer: 'abcd', bytes: 4 });
});

test('an answer past the cap is cut on a character boundary and the provider aborted', async () => {
  const p = provider(['12345678', 'éé', 'more']);
  const r = await runTurn(p, [], limits, new AbortController().signal, () => {});
  assert.is(r.outcome, 'cut');
  assert.is(r.answer, '12345678é');
  assert.is(r.bytes, 10);
  assert.ok(p.aborted);
  assert.is(cutToBytes('aé', 2), 'a');
});

test('a provider failure ends the turn with its message, keeping what came', async () => {
  const r = await runTurn(provider(['part'], 'model overloaded'), [], limits, new AbortController().signal, () => {});
  assert.equal(r, { outcome: 'failed', message: 'model overloaded', answer: 'part', bytes: 4 });
});

test('a cancelled turn ends cancelled', async () => {
  const cancel = new AbortController();
  cancel.abort();
  const r = await runTurn(provider(['x']), [], limits, cancel.signal, () => {});
  assert.is(r.outcome, 'cancelled');
});

test.run();
