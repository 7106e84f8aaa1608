// A WASM governance policy: views in, validated decisions out, through the WASM sandbox. Used on the telemetry
// lane, in batches (one guest call per batch amortises the crossing; see bench/wasm-policy-call.ts).
import {
  createWasmSandbox, WasmCallError, type WasmSandbox, type WasmSandboxOptions,
} from '../sandbox/wasm/index.js';
import { wasmOutputProblem, type WasmDecision, type WasmDecisionBatch } from './wasm-decision.js';
import { compileWasmJsonPath } from './wasm-narrow.js';
import type { PolicyView } from './wasm-view.js';

export interface WasmPolicyOptions extends WasmSandboxOptions {
  /** Views per guest call; larger batches are split. Default 256. */
  maxBatch?: number;
  /** The export to call. Default `decide`. */
  entry?: string;
}

export interface WasmPolicy {
  /**
   * One decision per view, in order. Rejects with a WasmCallError (timeout, trap, memory, crash, invalid_output)
   * when any guest call fails; use `decideSettled` to contain a failure to its own batch.
   */
  decide(views: readonly PolicyView[]): Promise<WasmDecision[]>;
  /** Like `decide`, but each view gets its decision or the error of the guest call that covered it. */
  decideSettled(views: readonly PolicyView[]): Promise<(WasmDecision | WasmCallError)[]>;
  close(): Promise<void>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes and checks a guest's answer; throws a WasmCallError('invalid_output') naming the problem. */
export function parseWasmDecisions(output: Uint8Array, expected: number): WasmDecision[] {
  let text: string;
  try {
    text = utf8.decode(output);
  } catch {
    throw new WasmCallError('invalid_output', 'wasm policy output is not valid UTF-8 (write it with plugin-sdk\'s outputJson, not Host.outputString)');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const shown = text.length > 120 ? `${text.slice(0, 120)}…` : text;
    throw new WasmCallError('invalid_output', `wasm policy output is not JSON (${(err as Error).message}): ${JSON.stringify(shown)}`);
  }
  const problem = wasmOutputProblem(value, expected);
  if (problem) throw new WasmCallError('invalid_output', `wasm policy output is invalid: ${problem}`);
  const decisions = (value as WasmDecisionBatch).decisions;
  for (const decision of decisions) {
    for (const path of decision.redact?.json_fields ?? []) {
      try {
        compileWasmJsonPath(path);
      } catch (err) {
        throw new WasmCallError('invalid_output', `wasm policy output is invalid: ${(err as Error).message}`);
      }
    }
  }
  return decisions;
}

/** Loads a policy module into a sandbox. The module is checked and instantiated before this resolves. */
export async function createWasmPolicy(options: WasmPolicyOptions): Promise<WasmPolicy> {
  const maxBatch = Math.max(1, Math.floor(options.maxBatch ?? 256));
  const entry = options.entry ?? 'decide';
  const sandbox: WasmSandbox = await createWasmSandbox(options);

  const callBatch = async (views: readonly PolicyView[]): Promise<WasmDecision[]> => {
    const output = await sandbox.call(entry, JSON.stringify({ views }));
    try {
      return parseWasmDecisions(output, views.length);
    } catch (err) {
      if (err instanceof WasmCallError) {
        try {
          options.onFailure?.('invalid_output', err);
        } catch {
          // A throwing counter must not turn an invalid output into something else.
        }
      }
      throw err;
    }
  };

  const chunks = (views: readonly PolicyView[]): (readonly PolicyView[])[] => {
    const out: (readonly PolicyView[])[] = [];
    for (let i = 0; i < views.length; i += maxBatch) out.push(views.slice(i, i + maxBatch));
    return out;
  };

  return {
    async decide(views) {
      if (views.length === 0) return [];
      const results = await Promise.all(chunks(views).map(callBatch));
      return results.flat();
    },
    async decideSettled(views) {
      const settled = await Promise.all(chunks(views).map(async (chunk) => {
        try {
          return await callBatch(chunk);
        } catch (err) {
          if (err instanceof WasmCallError) return chunk.map(() => err);
          throw err; // closed or busy: not the guest's doing, so not a per-view outcome
        }
      }));
      return settled.flat();
    },
    close: () => sandbox.close(),
  };
}
