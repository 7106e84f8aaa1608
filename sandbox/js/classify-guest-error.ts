/**
 * Turns what a guest threw, or what isolated-vm rejected with, into a failure reason and a message that says
 * what to do. Runs in the child process.
 */
import { guestRunnerFilename } from './guest-runner.js';
import type { JsFailureReason } from './types.js';

export interface ThrownDescriptor {
  name: string;
  message: string;
  stack: string;
}

export interface Classified {
  reason: JsFailureReason;
  message: string;
  stack?: string;
}

/** Names that exist in Node or browsers but not in a sandboxed function; reaching for one is `forbidden`. */
const hostOnlyGlobals = new Set([
  'process', 'require', 'module', 'exports', '__dirname', '__filename', 'global', 'Buffer',
  'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'queueMicrotask',
  'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'navigator', 'Deno', 'Bun', 'WebAssembly',
  // Removed because their work outlives the call (see guest-runner.ts).
  'FinalizationRegistry', 'WeakRef', 'Atomics', 'SharedArrayBuffer',
]);

const notDefined = /^(\S+) is not defined$/;
const dynamicImportCall = /\bimport\s*\(/;
const sandboxRules =
  'a sandboxed function gets its input as an argument and returns JSON; it has no process, require, import, timers, ' +
  'network, finalizers, weak references or shared memory';

/** Drops the runner's own frames, so a stack shows only the user's file. */
export function guestStack(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  const kept = stack.split('\n').filter((line) => !line.includes(guestRunnerFilename) && !line.includes('<isolated-vm boundary>'));
  return kept.length > 1 ? kept.join('\n') : undefined;
}

/** A value the function threw (or rejected with), as described by the runner inside the isolate. */
export function classifyThrown(thrown: ThrownDescriptor, source: string): Classified {
  const { name, message } = thrown;
  const stack = guestStack(thrown.stack);
  const missing = name === 'ReferenceError' ? notDefined.exec(message)?.[1] : undefined;
  if (missing !== undefined && hostOnlyGlobals.has(missing)) {
    return { reason: 'forbidden', message: `${missing} is not available: ${sandboxRules}`, stack };
  }
  // V8's own rejection of import() when the embedder offers no module loader.
  if (name === 'Error' && message === 'Not supported' && dynamicImportCall.test(source)) {
    return { reason: 'forbidden', message: `import() is not available: ${sandboxRules}`, stack };
  }
  if (name === 'RangeError' && message === 'Array buffer allocation failed') {
    return { reason: 'memory', message: 'an ArrayBuffer allocation went over the memory limit', stack };
  }
  return { reason: 'thrown', message: name ? `${name}: ${message}` : message, stack };
}

/** An error isolated-vm rejected a compile, evaluate or apply with. */
export function classifyIsolateError(
  err: unknown,
  source: string,
  phase: 'compile' | 'run',
  limits: { timeoutMs: number; memoryLimitMb: number },
): Classified {
  const e = err as { name?: unknown; message?: unknown; stack?: unknown } | null;
  const name = typeof e?.name === 'string' ? e.name : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (message.includes('Script execution timed out')) {
    return { reason: 'timeout', message: `the call ran past its time limit of ${limits.timeoutMs} ms` };
  }
  if (message.includes('due to memory limit')) {
    return { reason: 'memory', message: `the call went over the memory limit of ${limits.memoryLimitMb} MB` };
  }
  if (message.includes('Isolate was disposed') || message.includes('Isolate is disposed')) {
    return { reason: 'crash', message: 'the isolate running the call was disposed' };
  }
  if (phase === 'compile') return { reason: 'compile', message: name ? `${name}: ${message}` : message };
  // Top-level code of the module threw: isolated-vm hands the guest's error over as a copy.
  return classifyThrown({ name, message, stack: typeof e?.stack === 'string' ? e.stack : '' }, source);
}
