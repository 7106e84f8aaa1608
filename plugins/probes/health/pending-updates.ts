import { execFile } from 'node:child_process';

/** `apt-get -s upgrade` reads every package list: a few seconds, so never more often than this. */
export const UPDATES_CACHE_MS = 3_600_000;
const APT_TIMEOUT_MS = 30_000;

export interface PendingUpdates { total: number; security: number; manager: string }

/**
 * Counts pending upgrades in `apt-get -s upgrade` output: one `Inst <pkg> [old] (new <origins> [arch])` line per
 * package; a package whose origins include a security archive (`Debian-Security:12/stable-security`,
 * `Ubuntu:22.04/jammy-security`) is a security update.
 */
export function parseAptSimulation(out: string): PendingUpdates {
  let total = 0;
  let security = 0;
  for (const line of out.split('\n')) {
    if (!line.startsWith('Inst ')) continue;
    total++;
    if (/-security\b|Security:/i.test(line)) security++;
  }
  return { total, security, manager: 'apt' };
}

function simulateApt(signal: AbortSignal): Promise<PendingUpdates | null> {
  return new Promise((resolve) => {
    execFile('apt-get', ['-s', '-o', 'Debug::NoLocking=1', 'upgrade'],
      { timeout: APT_TIMEOUT_MS, signal, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C', DEBIAN_FRONTEND: 'noninteractive' } },
      (error, stdout) => resolve(error ? null : parseAptSimulation(String(stdout))));
  });
}

/**
 * Pending updates from apt (the lists as of the last `apt update`: nothing is downloaded), cached an hour, one run
 * at a time; null where there is no apt or it failed (other package managers come with the packages tab).
 */
export class PendingUpdatesCache {
  private cached: { at: number; value: PendingUpdates | null } | undefined;
  private running: Promise<PendingUpdates | null> | undefined;

  private readonly abort = new AbortController();

  constructor(private readonly run: (signal: AbortSignal) => Promise<PendingUpdates | null> = simulateApt, private readonly now: () => number = Date.now) {}

  /** Kills a run in flight (the plugin stops): no apt-get outlives it. */
  stop(): void {
    this.abort.abort();
  }

  /**
   * The cached answer without waiting: undefined while none is fresh, in which case a run starts (if none runs), so
   * the health score answers at once and has the updates on a later ask.
   */
  peek(): PendingUpdates | null | undefined {
    if (this.cached && this.now() - this.cached.at < UPDATES_CACHE_MS) return this.cached.value;
    this.get().catch(() => undefined);
    return undefined;
  }

  async get(): Promise<PendingUpdates | null> {
    if (this.cached && this.now() - this.cached.at < UPDATES_CACHE_MS) return this.cached.value;
    this.running ??= this.run(this.abort.signal).then((value) => {
      this.cached = { at: this.now(), value };
      return value;
    }).finally(() => { this.running = undefined; });
    return this.running;
  }
}
