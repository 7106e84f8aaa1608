import type { CommandIo } from '@vigil/plugin-sdk';
import { ConfigErrors } from '../config/errors.js';

/**
 * Prints a start-up failure and returns its exit code: 2 for an invalid config, 1 for anything else.
 * Errors are recognised by their stable codes; config/errors.js is small (no Ajv, no YAML parser), so printing one
 * does not load the config layer.
 */
export function reportStartupError(err: unknown, io: CommandIo): number {
  const e = err as { code?: string; name?: string; message?: string; stack?: string; cause?: { stack?: string } };
  if (e?.code === ConfigErrors.INVALID) {
    io.err(`${e.message}\n`);
    return 2;
  }
  if (e?.name === 'PluginError') {
    io.err(`vigil: ${e.message}\n`);
    if (process.env.VIGIL_DEBUG && e.cause?.stack) io.err(`${e.cause.stack}\n`);
    return 1;
  }
  io.err(`vigil: ${e?.code ? `${e.code}: ` : ''}${e?.message ?? String(err)}\n`);
  if (process.env.VIGIL_DEBUG && e?.stack) io.err(`${e.stack}\n`);
  return 1;
}
