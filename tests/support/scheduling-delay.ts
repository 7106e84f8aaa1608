import { spawn } from 'node:child_process';

/**
 * A control for event-loop delay measured under load: an idle Node process that measures its own loop's largest
 * delay while a test runs. Its loop does no work, so what it sees is the machine's scheduling delay (a loaded CI
 * machine adds hundreds of milliseconds to every process's timers); a test compares the product's delay with the
 * budget plus this, not with the budget alone.
 */
export function measureSchedulingDelay(): { stop(): Promise<number> } {
  const script = `
    const { monitorEventLoopDelay } = require('node:perf_hooks');
    const h = monitorEventLoopDelay({ resolution: 10 }); h.enable();
    process.stdin.on('data', () => { h.disable(); process.stdout.write(String(h.max / 1e6)); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => { out += c; });
  return {
    stop: () => new Promise<number>((resolve, reject) => {
      child.once('exit', () => {
        const ms = Number(out);
        if (Number.isFinite(ms)) resolve(ms);
        else reject(new Error(`the control process printed ${JSON.stringify(out)}`));
      });
      child.stdin.write('stop\n');
    }),
  };
}
