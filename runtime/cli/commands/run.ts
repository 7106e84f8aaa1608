import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandDefinition } from '@vigil/plugin-sdk';
import type { Composition } from '../../composition.js';
import type { Runtime } from '../../runtime.js';
import { exitBySignal } from '../exit-by-signal.js';
import { reportStartupError } from '../report-error.js';
import { missingFlags } from '../v8-flags.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Where to start without a config of one's own: the example beside a clone, or `vigil schema` to write one. */
function startHint(cwd: string): string {
  return existsSync(join(cwd, 'examples', 'vigil.yaml'))
    ? 'To start with the example: npm start, or npx vigil run -config examples/vigil.yaml\n'
    : 'A config file can be as small as `ui: {}`; examples/vigil.yaml in the repository has every area on, and `vigil schema` lists every key.\n';
}
type StopReason = (typeof STOP_SIGNALS)[number];

/**
 * `vigil run -config FILE`: starts the runtime, reloads its config file on SIGHUP, and stops it cleanly on SIGINT or
 * SIGTERM.
 */
export const runCommand = (composition: Composition): CommandDefinition => ({
  name: 'run',
  summary: 'Run Vigil with a config file (gateway, LLM platform, host monitor: whatever the file enables)',
  usage: 'vigil run -config FILE',
  flags: { config: { type: 'string', summary: 'the YAML config file' } },
  async run(args, io) {
    const file = args.flags.config;
    if (typeof file !== 'string') { io.err(`vigil run: -config FILE is required.\n${startHint(io.cwd)}`); return 2; }
    let runtime: Runtime;
    try {
      const { Runtime } = await import('../../runtime.js');
      runtime = await Runtime.start(file, { composition, env: io.env });
    } catch (err) {
      return reportStartupError(err, io);
    }
    const missing = missingFlags();
    if (missing.length > 0) {
      runtime.log.warn(`serving without ${missing.join(' ')}: scavenges of V8's default young generation lengthen the gateway's p99; start with bin/vigil.js or npm start, or add the flag to NODE_OPTIONS`, { missing });
    }
    // Reloads run one after another; each reads the file as it is then.
    let reloads: Promise<unknown> = Promise.resolve();
    const reload = () => { runtime.log.info('SIGHUP: reloading the config file'); reloads = reloads.then(() => runtime.reload()); };
    process.on('SIGHUP', reload);
    const reason = await new Promise<StopReason>((resolve) => {
      for (const signal of STOP_SIGNALS) process.once(signal, () => resolve(signal));
    });
    // A second signal while draining means "now".
    for (const signal of STOP_SIGNALS) {
      process.once(signal, () => { runtime.log.warn('second signal: exiting without draining'); void exitBySignal(signal); });
    }
    // Still listened to (added before the reload is removed), so a SIGHUP while draining cannot end the process.
    process.on('SIGHUP', () => runtime.log.warn('SIGHUP while stopping: no reload'));
    process.off('SIGHUP', reload);
    runtime.log.info('stopping', { reason });
    const { busyPools } = await runtime.stop();
    if (busyPools.length) return exitBySignal(reason);
    runtime.log.info('stopped');
    // Exit explicitly: a stray handle in a third-party plugin must not keep a stopped gateway alive.
    process.exit(0);
  },
});
