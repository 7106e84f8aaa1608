import { cp, lstat, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { tidyCopy } from './tidy-copy.js';

export type BackupSchedule = 'off' | 'daily' | 'weekly';

export interface BackupSettings {
  sources: string[];
  dest: string;
  schedule: BackupSchedule;
  /** Once a week, remove from the backup the copies of what was deleted from the sources (off: the backup only grows). */
  tidy?: boolean;
}

export interface BackupRun {
  at: string;
  ok: boolean;
  /** Files copied this run (unchanged ones are skipped). */
  copied: number;
  /** Copies the weekly tidy-up removed this run (their originals were deleted); 0 on other runs. */
  removed: number;
  bytes: number;
  duration_ms: number;
  error: string | null;
}

interface Saved { settings: BackupSettings; last: BackupRun | null; last_tidy?: string }

/** The folder under `dest` that holds the copies, one folder per source. */
export const BACKUP_FOLDER = 'vigil-backup';
/** Written after every successful run: its mtime is the backup's age, for a host `backup` rule pointed at the folder. */
export const LAST_RUN_FILE = '.last-run';
const PERIOD_MS: Record<BackupSchedule, number> = { off: Infinity, daily: 86_400_000, weekly: 7 * 86_400_000 };
const TIDY_PERIOD_MS = 7 * 86_400_000;

/**
 * perch's backup helper: chosen folders copied to another drive on demand, daily or weekly. A run mirrors each
 * source into `<dest>/vigil-backup/<name>`, copying only files whose size or modification time differ (timestamps
 * kept, links copied as links); with `tidy`, once a week the copies of what was deleted from a source are removed too.
 * The settings and the last run live in a JSON file in the plugin's data folder.
 */
export class BackupRunner {
  private saved: Saved = { settings: { sources: [], dest: '', schedule: 'off' }, last: null };
  private running: Promise<BackupRun> | undefined;

  constructor(private readonly file: string, private readonly now: () => number = Date.now) {}

  async load(): Promise<void> {
    try { this.saved = JSON.parse(await readFile(this.file, 'utf8')) as Saved; } catch { /* first start */ }
  }

  get settings(): BackupSettings { return this.saved.settings; }
  get last(): BackupRun | null { return this.saved.last; }
  get busy(): boolean { return this.running !== undefined; }

  async configure(settings: BackupSettings): Promise<void> {
    this.saved = { ...this.saved, settings };
    await this.persist();
  }

  /** Whether the schedule asks for a run now. */
  due(): boolean {
    const { schedule, sources, dest } = this.saved.settings;
    if (schedule === 'off' || sources.length === 0 || !dest) return false;
    const last = this.saved.last ? Date.parse(this.saved.last.at) : 0;
    return this.now() - last >= PERIOD_MS[schedule];
  }

  /** Runs now, or joins the run under way. */
  run(): Promise<BackupRun> {
    this.running ??= this.copy().finally(() => { this.running = undefined; });
    return this.running;
  }

  private async copy(): Promise<BackupRun> {
    const started = this.now();
    const { sources, dest } = this.saved.settings;
    let copied = 0;
    let bytes = 0;
    let removed = 0;
    let error: string | null = null;
    const lastTidy = this.saved.last_tidy ? Date.parse(this.saved.last_tidy) : -Infinity;
    const tidy = this.saved.settings.tidy === true && started - lastTidy >= TIDY_PERIOD_MS;
    try {
      if (!sources.length || !dest) throw new Error('no folders or no destination are set');
      const root = join(dest, BACKUP_FOLDER);
      await mkdir(root, { recursive: true });
      for (const source of sources) {
        await cp(source, join(root, basename(source)), {
          recursive: true, force: true, preserveTimestamps: true, verbatimSymlinks: true, errorOnExist: false,
          // Unchanged files (same size and modification time) are not copied again.
          filter: async (from, to) => {
            const s = await lstat(from);
            if (!s.isFile()) return true;
            const d = await stat(to).catch(() => undefined);
            if (d && d.size === s.size && Math.abs(d.mtimeMs - s.mtimeMs) < 1) return false;
            copied++;
            bytes += s.size;
            return true;
          },
        });
        // After its copy succeeded, so a source that cannot be read is never tidied against.
        if (tidy) removed += await tidyCopy(source, join(root, basename(source)));
      }
      await writeFile(join(root, LAST_RUN_FILE), `${new Date(this.now()).toISOString()}\n`);
      if (tidy) this.saved = { ...this.saved, last_tidy: new Date(started).toISOString() };
    } catch (err) {
      error = (err as Error).message.slice(0, 500);
    }
    const run: BackupRun = { at: new Date(started).toISOString(), ok: error === null, copied, removed, bytes, duration_ms: this.now() - started, error };
    this.saved = { ...this.saved, last: run };
    await this.persist();
    return run;
  }

  private async persist(): Promise<void> {
    await writeFile(this.file, JSON.stringify(this.saved), { mode: 0o600 });
  }
}
