import { JsSandboxError, JsSandboxErrors } from './errors.js';
import type { JsSandboxOptions } from './types.js';

export interface ResolvedJsSandboxOptions {
  processes: number;
  isolatesPerProcess: number;
  timeoutMs: number;
  memoryLimitMb: number;
  maxOutputBytes: number;
  maxOutputDepth: number;
  graceMs: number;
  maxQueue: number;
  onFailure: NonNullable<JsSandboxOptions['onFailure']>;
  onRestart: NonNullable<JsSandboxOptions['onRestart']>;
  onRetry: NonNullable<JsSandboxOptions['onRetry']>;
}

export const jsSandboxDefaults = {
  processes: 1,
  isolatesPerProcess: 2,
  timeoutMs: 250,
  memoryLimitMb: 64,
  maxOutputBytes: 1024 * 1024,
  maxOutputDepth: 256,
  graceMs: 250,
  maxQueue: 1000,
} as const;

/** isolated-vm refuses isolates under 8 MB. */
const minMemoryLimitMb = 8;

function integer(options: JsSandboxOptions, key: keyof typeof jsSandboxDefaults, min: number, max: number): number {
  const value = options[key] ?? jsSandboxDefaults[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new JsSandboxError(
      JsSandboxErrors.OPTIONS,
      `js sandbox: option ${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Fills defaults and rejects out-of-range options with VIGIL_ERR_SANDBOX_OPTIONS. */
export function resolveJsSandboxOptions(options: JsSandboxOptions = {}): ResolvedJsSandboxOptions {
  for (const hook of ['onFailure', 'onRestart', 'onRetry'] as const) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function') {
      throw new JsSandboxError(JsSandboxErrors.OPTIONS, `js sandbox: option ${hook} must be a function`);
    }
  }
  return {
    processes: integer(options, 'processes', 1, 64),
    isolatesPerProcess: integer(options, 'isolatesPerProcess', 1, 64),
    timeoutMs: integer(options, 'timeoutMs', 1, 600_000),
    memoryLimitMb: integer(options, 'memoryLimitMb', minMemoryLimitMb, 16_384),
    maxOutputBytes: integer(options, 'maxOutputBytes', 2, 512 * 1024 * 1024),
    // The host's JSON.stringify overflows its stack at about 4,000 levels, less when called from deep in a stack.
    maxOutputDepth: integer(options, 'maxOutputDepth', 1, 1000),
    graceMs: integer(options, 'graceMs', 0, 600_000),
    maxQueue: integer(options, 'maxQueue', 0, 1_000_000),
    onFailure: options.onFailure ?? (() => {}),
    onRestart: options.onRestart ?? (() => {}),
    onRetry: options.onRetry ?? (() => {}),
  };
}
