import { ProgramMissing, runBounded } from '../run-bounded.js';
import type { GnomeKey } from './gnome-keys.js';

/** Each gsettings call's timeout and output cap (a value or a range is a line or two; the schema list a few KiB). */
const TIMEOUT_MS = 5_000;
const MAX_BYTES = 256 * 1024;

export class GsettingsError extends Error {}

/**
 * `gsettings` with an argument list, under a timeout and an output cap. It talks to dconf on a desktop session; with
 * `GSETTINGS_BACKEND=keyfile` in Vigil's environment it reads and writes a key file instead (no D-Bus needed).
 */
export class Gsettings {
  constructor(private readonly program = 'gsettings') {}

  private async call(args: string[]): Promise<string> {
    const r = await runBounded(this.program, args, { timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES });
    if (r.timedOut) throw new GsettingsError(`gsettings ${args[0]} took longer than ${TIMEOUT_MS / 1000} s`);
    if (r.code !== 0) throw new GsettingsError(r.stderr.trim().slice(0, 500) || `gsettings ${args[0]} exited with ${r.code}`);
    return r.stdout;
  }

  /** The installed schemas, or null when gsettings is not installed. */
  async schemas(): Promise<Set<string> | null> {
    try {
      return new Set((await this.call(['list-schemas'])).split('\n').map((s) => s.trim()).filter(Boolean));
    } catch (err) {
      if (err instanceof ProgramMissing) return null;
      throw err;
    }
  }

  get(k: GnomeKey): Promise<string> {
    return this.call(['get', k.schema, k.key]);
  }

  range(k: GnomeKey): Promise<string> {
    return this.call(['range', k.schema, k.key]);
  }

  async writable(k: GnomeKey): Promise<boolean> {
    return (await this.call(['writable', k.schema, k.key])).trim() === 'true';
  }

  /** `text` is GVariant text made by `encodeValue` from a value checked against the key's range. */
  async set(k: GnomeKey, text: string): Promise<void> {
    await this.call(['set', k.schema, k.key, text]);
  }
}
