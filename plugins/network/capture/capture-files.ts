import { open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { httpError } from '@vigil/plugin-sdk';
import { NetworkErrors } from '../errors.js';

export type StopReason = 'packets' | 'time' | 'size' | 'stopped' | 'error';

/** One capture as the list shows it (its `.json` beside the `.pcap`). */
export interface CaptureInfo {
  name: string;
  interface: string;
  filter: string;
  max_packets: number;
  max_seconds: number;
  snaplen: number;
  started_at: string;
  ended_at: string | null;
  status: 'running' | 'done';
  /** Why it ended: its packet count reached, its time limit, its size limit, stopped by a user, or tcpdump failed. */
  stop_reason: StopReason | null;
  packets: number | null;
  bytes: number;
  error: string | null;
  /** Who started it, as the audit log names them. */
  started_by: string;
}

/** What a capture's name looks like: made here, checked on every request that names one (no path can pass). */
export const CAPTURE_NAME = /^capture-\d{8}T\d{6}\d{3}Z-[A-Za-z0-9_.-]{1,32}\.pcap$/;

/** A new capture's file name: its start time and interface. */
export function captureName(at: Date, iface: string): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `capture-${stamp}-${iface.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 32)}.pcap`;
}

/** The capture folder: `<plugin data dir>/captures`, files `capture-*.pcap` with their `.json`. */
export class CaptureFiles {
  constructor(readonly dir: string) {}

  /** The path of a capture named by a request; 404 for a name that is not one or not there. */
  async path(name: string): Promise<string> {
    if (!CAPTURE_NAME.test(name)) throw httpError(NetworkErrors.CAPTURE_NOT_FOUND, `"${name.slice(0, 80)}" is not a capture's name`);
    const file = join(this.dir, name);
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
    } catch {
      throw httpError(NetworkErrors.CAPTURE_NOT_FOUND, `no capture is named ${name}`);
    }
    return file;
  }

  /** Writes a capture's facts atomically (a reader never sees half a file). */
  async save(info: CaptureInfo): Promise<void> {
    const file = join(this.dir, `${info.name}.json`);
    await writeFile(`${file}.tmp`, JSON.stringify(info));
    await rename(`${file}.tmp`, file);
  }

  async info(name: string): Promise<CaptureInfo | undefined> {
    try {
      const info = JSON.parse(await readFile(join(this.dir, `${name}.json`), 'utf8')) as CaptureInfo;
      const size = await stat(join(this.dir, name)).then((s) => s.size, () => 0);
      return { ...info, bytes: size };
    } catch {
      return undefined;
    }
  }

  /** Every capture, newest first; at most `max` (the folder never holds more than the configured keep). */
  async list(max: number): Promise<CaptureInfo[]> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => CAPTURE_NAME.test(n)).sort().reverse().slice(0, max);
    const infos = await Promise.all(names.map(async (name) => (await this.info(name)) ?? orphan(name, await stat(join(this.dir, name)).then((s) => s, () => undefined))));
    return infos;
  }

  async count(): Promise<number> {
    return (await readdir(this.dir).catch(() => [] as string[])).filter((n) => CAPTURE_NAME.test(n)).length;
  }

  async delete(name: string): Promise<void> {
    const file = await this.path(name);
    await rm(file, { force: true });
    await rm(`${file}.json`, { force: true });
  }

  /** The first `max` bytes of a capture (a running one is read as far as tcpdump wrote it). */
  async bytes(name: string, max: number): Promise<{ bytes: Buffer; size: number }> {
    const fh = await open(await this.path(name), 'r');
    try {
      const size = (await fh.stat()).size;
      const want = Math.min(size, max);
      const bytes = Buffer.alloc(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await fh.read(bytes, got, want - got, got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return { bytes: bytes.subarray(0, got), size };
    } finally {
      await fh.close();
    }
  }
}

/** A pcap without its facts file (copied in by hand): what its name and size tell. */
function orphan(name: string, s: { size: number; mtime: Date } | undefined): CaptureInfo {
  return {
    name, interface: name.replace(/^capture-[^-]+-/, '').replace(/\.pcap$/, ''), filter: '', max_packets: 0, max_seconds: 0, snaplen: 0,
    started_at: (s?.mtime ?? new Date(0)).toISOString(), ended_at: (s?.mtime ?? new Date(0)).toISOString(), status: 'done',
    stop_reason: null, packets: null, bytes: s?.size ?? 0, error: null, started_by: 'unknown',
  };
}
