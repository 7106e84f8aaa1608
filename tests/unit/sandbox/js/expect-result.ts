import * as assert from 'uvu/assert';
import type { JsFailure, JsResult, JsSandbox } from '../../../../sandbox/js/types.js';

/** The value of a successful result; fails the test with the error otherwise. */
export function expectValue(result: JsResult): unknown {
  if (!result.ok) assert.unreachable(`expected a value, got ${result.error.reason}: ${result.error.message}`);
  return (result as { value: unknown }).value;
}

/** The error of a failed result with the given reason; fails the test otherwise. */
export function expectFailure(result: JsResult, reason: JsFailure['reason']): JsFailure {
  if (result.ok) assert.unreachable(`expected ${reason}, got the value ${JSON.stringify(result.value)}`);
  const { error } = result as { error: JsFailure };
  assert.is(error.reason, reason, `expected ${reason}, got ${error.reason}: ${error.message}`);
  return error;
}

/** Loads and calls a source in one step. */
export async function callSource(sandbox: JsSandbox, source: string, input?: unknown, filename?: string): Promise<JsResult> {
  return (await sandbox.load(source, filename)).call(input);
}

/** The rejection of `promise`, which must reject. */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string; reason?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { code?: string; reason?: string };
  }
  return assert.unreachable('expected a rejection') as never;
}
