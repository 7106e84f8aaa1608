import type { CommandIo } from '@vigil/plugin-sdk';
import { ConfigError } from '../config/index.js';
import { PluginError } from '../plugins/errors.js';

/** Prints a start-up failure and returns its exit code: 2 for an invalid config, 1 for anything else. */
export function reportStartupError(err: unknown, io: CommandIo): number {
  if (err instanceof ConfigError) {
    io.err(`${err.message}\n`);
    return 2;
  }
  if (err instanceof PluginError) {
    io.err(`vigil: ${err.message}\n`);
    const cause = err.cause as Error | undefined;
    if (cause?.stack && process.env.VIGIL_DEBUG) io.err(`${cause.stack}\n`);
    return 1;
  }
  const e = err as { code?: string; message?: string; stack?: string };
  io.err(`vigil: ${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}\n`);
  if (process.env.VIGIL_DEBUG && e.stack) io.err(`${e.stack}\n`);
  return 1;
}
