import { httpError } from '@vigil/plugin-sdk';
import { SystoolsErrors } from '../errors.js';
import { runTool, ToolMissing } from '../run-tool.js';
import { MAX_CRONTAB_BYTES } from './crontab-text.js';

const CRONTAB_TIMEOUT_MS = 10_000;

/**
 * One user's crontab through the real `crontab` program (it owns the spool, its locking and cron's reload):
 * `crontab -l` to read, `crontab -` to install. `user` set: `crontab -u <user>` (needs root); unset: Vigil's own user.
 */
export class UserCrontab {
  constructor(private readonly user: string | undefined) {}

  private args(rest: string[]): string[] {
    return this.user ? ['-u', this.user, ...rest] : rest;
  }

  /** The crontab's text; '' when the user has none. */
  async read(): Promise<string> {
    const r = await this.run(['-l']);
    if (r.code === 0) {
      if (Buffer.byteLength(r.stdout) > MAX_CRONTAB_BYTES) throw httpError(SystoolsErrors.CRONTAB_FAILED, `the crontab is larger than ${MAX_CRONTAB_BYTES / 1024} KiB; edit it with crontab -e`);
      return r.stdout;
    }
    if (/no crontab for/i.test(r.stderr)) return '';
    throw httpError(SystoolsErrors.CRONTAB_FAILED, `crontab -l failed: ${r.timedOut ? `no answer within ${CRONTAB_TIMEOUT_MS / 1000} s` : r.stderr.trim().slice(0, 400) || `exit ${r.code}`}`);
  }

  /** Installs `text`; crontab checks it again and refuses the whole table on any bad line (then nothing changes). */
  async write(text: string): Promise<void> {
    const r = await this.run(text === '' ? ['-r'] : ['-'], text);
    if (r.code === 0) return;
    if (text === '' && /no crontab for/i.test(r.stderr)) return;
    throw httpError(SystoolsErrors.CRONTAB_FAILED, `crontab refused the change: ${r.timedOut ? `no answer within ${CRONTAB_TIMEOUT_MS / 1000} s` : r.stderr.trim().slice(0, 400) || `exit ${r.code}`}`);
  }

  private async run(args: string[], input?: string) {
    try {
      return await runTool('crontab', this.args(args), { timeoutMs: CRONTAB_TIMEOUT_MS, maxBytes: MAX_CRONTAB_BYTES + 1, input });
    } catch (err) {
      if (err instanceof ToolMissing) throw httpError(SystoolsErrors.CRONTAB_MISSING, 'crontab is not installed here: install cron to keep scheduled tasks');
      throw err;
    }
  }
}
