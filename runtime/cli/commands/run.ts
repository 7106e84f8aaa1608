import type { CommandDefinition } from '@vigil/plugin-sdk';
import type { Runtime } from '../../runtime.js';
import { exitBySignal } from '../exit-by-signal.js';
import { reportStartupError } from '../report-error.js';

/** SIGHUP too: a closed terminal or a reload habit must not end the process without draining (Node's default). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopReason = (typeof STOP_SIGNALS)[number] | 'parent process gone';

/**
 * `vigil run -config FILE`: starts the runtime and stops it cleanly on SIGINT, SIGTERM or SIGHUP, or when the
 * `vigil` process that started this one with its V8 flags (process-entry.ts) is gone: its IPC channel to us closes.
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
      for (const signal of STOP_SIGNALS) process.once(signal, () => resolve(signal));
      if (process.channel) process.once('disconnect', () => resolve('parent process gone'));
    });
    // A second signal while draining means "now".
    for (const signal of STOP_SIGNALS) {
      process.once(signal, () => { runtime.log.warn('second signal: exiting without draining'); void exitBySignal(signal); });
    }
    if (reason === 'SIGHUP') runtime.log.warn('SIGHUP: vigil run does not reload its configuration; it drains and stops as on SIGTERM');
    runtime.log.info('stopping', { reason });
    const { busyPools } = await runtime.stop();
    if (busyPools.length) return exitBySignal(reason === 'parent process gone' ? 'SIGTERM' : reason);
    runtime.log.info('stopped');
    // Exit explicitly: a stray handle in a third-party plugin must not keep a stopped gateway alive.
    process.exit(0);
  },
};
