import type { CommandIo } from '@vigil/plugin-sdk';

/**
 * Prints a start-up failure and returns its exit code: 2 for an invalid config, 1 for anything else.
 * Errors are recognised by their stable codes, so the CLI does not load the config layer just to print them.
 */
export function reportStartupError(err: unknown, io: CommandIo): number {
  const e = err as { code?: string; name?: string; message?: string; stack?: string; cause?: { stack?: string } };
  if (e?.code === 'VIGIL_ERR_CONFIG_INVALID') {
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
