import type { CommandDefinition } from '@vigil/plugin-sdk';
import type { Runtime } from '../../runtime.js';
import { exitBySignal } from '../exit-by-signal.js';
import { reportStartupError } from '../report-error.js';

type StopReason = 'SIGINT' | 'SIGTERM' | 'parent process gone';

/**
 * `vigil run -config FILE`: starts the runtime and stops it cleanly on SIGINT or SIGTERM, or when the `vigil` process
 * that started this one with its V8 flags (process-entry.ts) is gone: its IPC channel to us closes.
 */
export const runCommand: CommandDefinition = {
  name: 'run',
  summary: 'Run Vigil with a config file (gateway, LLM platform, host monitor: whatever the file enables)',
  usage: 'vigil run -config FILE',
  flags: { config: { type: 'string', summary: 'the YAML config file' } },
  async run(args, io) {
    const file = args.flags.config;
    if (typeof file !== 'string') { io.err('vigil run: -config FILE is required\n'); return 2; }
    let runtime: Runtime;
    try {
      const { Runtime } = await import('../../runtime.js');
      runtime = await Runtime.start(file, { env: io.env });
    } catch (err) {
      return reportStartupError(err, io);
    }
    const reason = await new Promise<StopReason>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
      if (process.channel) process.once('disconnect', () => resolve('parent process gone'));
    });
    // A second signal while draining means "now".
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => { runtime.log.warn('second signal: exiting without draining'); void exitBySignal(signal); });
    }
    runtime.log.info('stopping', { reason });
    const { busyPools } = await runtime.stop();
    if (busyPools.length) return exitBySignal(reason === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
    runtime.log.info('stopped');
    // Exit explicitly: a stray handle in a third-party plugin must not keep a stopped gateway alive.
    process.exit(0);
  },
};
