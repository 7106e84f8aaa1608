import { mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import type { Logger } from '@vigil/plugin-sdk';

export interface RotatingFileOptions {
  path: string;
  /** A file is rotated before a line would take it past this many bytes (a single larger line gets a file of its own). */
  maxBytes: number;
  /** Rotated files kept: `records.1.jsonl` (newest) … `records.<maxFiles>.jsonl`. 0 keeps none. */
  maxFiles: number;
  log: Logger;
}

/** `records.jsonl` → `records.<n>.jsonl`; `records` → `records.<n>`. */
export function rotatedPath(path: string, n: number): string {
  const ext = extname(path);
  return ext ? `${path.slice(0, -ext.length)}.${n}${ext}` : `${path}.${n}`;
}

/**
 * An append-only file of whole lines, rotated by size and by count. Invariant: the file never ends in a partial
 * line - a failed write is truncated back, a partial tail left by a crash is cut when the file is opened, and close
 * waits for the write in progress, then fsyncs.
 */
export class RotatingFile {
  private handle: FileHandle | undefined;
  private size = 0;
  private queue: Promise<void> = Promise.resolve();
  private closing: Promise<void> | undefined;

  constructor(private readonly options: RotatingFileOptions) {}

  /** Appends whole lines (each ending in "\n"), after the appends before it; skipped if `signal` aborted meanwhile. */
  append(lines: readonly Buffer[], signal?: AbortSignal): Promise<void> {
    if (this.closing) return Promise.reject(new Error(`file ${this.options.path} is closed`));
    const run = this.queue.then(() => {
      if (signal?.aborted) throw signal.reason;
      return this.write(lines);
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Waits for pending appends, fsyncs and closes; idempotent. */
  close(): Promise<void> {
    this.closing ??= this.queue.then(async () => {
      const handle = this.handle;
      this.handle = undefined;
      if (!handle) return;
      try { await handle.sync(); } finally { await handle.close(); }
    });
    return this.closing;
  }

  private async write(lines: readonly Buffer[]): Promise<void> {
    if (!this.handle) await this.openFile();
    let chunk: Buffer[] = [];
    let chunkBytes = 0;
    for (const line of lines) {
      if (this.size + chunkBytes > 0 && this.size + chunkBytes + line.length > this.options.maxBytes) {
        if (chunkBytes > 0) await this.writeChunk(chunk, chunkBytes);
        await this.rotate();
        chunk = [];
        chunkBytes = 0;
      }
      chunk.push(line);
      chunkBytes += line.length;
    }
    if (chunkBytes > 0) await this.writeChunk(chunk, chunkBytes);
  }

  private async writeChunk(chunk: Buffer[], bytes: number): Promise<void> {
    const handle = this.handle ?? (await this.openFile());
    try {
      await handle.appendFile(chunk.length === 1 ? chunk[0] : Buffer.concat(chunk, bytes));
      this.size += bytes;
    } catch (err) {
      // Cut whatever part of the chunk reached the file, so the retry starts on a line boundary.
      await handle.truncate(this.size).catch(() => {});
      throw err;
    }
  }

  private async openFile(): Promise<FileHandle> {
    const { path } = this.options;
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(path, 'a+');
    const { size } = await handle.stat();
    this.size = await this.cutPartialTail(handle, size);
    this.handle = handle;
    return handle;
  }

  /** Returns the size after removing an unterminated last line (left by a crash mid-write). */
  private async cutPartialTail(handle: FileHandle, size: number): Promise<number> {
    if (size === 0) return 0;
    const window = Buffer.allocUnsafe(64 * 1024);
    let end = size;
    const last = await handle.read(window, 0, 1, size - 1);
    if (last.bytesRead === 1 && window[0] === 0x0a) return size;
    while (end > 0) {
      const start = Math.max(0, end - window.length);
      const { bytesRead } = await handle.read(window, 0, end - start, start);
      const at = window.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (at >= 0) { end = start + at + 1; break; }
      end = start;
    }
    await handle.truncate(end);
    this.options.log.warn('cut a partial last line left by an interrupted write', { path: this.options.path, bytes: size - end });
    return end;
  }

  private async rotate(): Promise<void> {
    const { path, maxFiles } = this.options;
    const handle = this.handle;
    this.handle = undefined;
    if (handle) {
      try { await handle.sync(); } finally { await handle.close(); }
    }
    if (maxFiles === 0) {
      await unlink(path).catch(ignoreMissing);
    } else {
      await unlink(rotatedPath(path, maxFiles)).catch(ignoreMissing);
      for (let n = maxFiles - 1; n >= 1; n--) await rename(rotatedPath(path, n), rotatedPath(path, n + 1)).catch(ignoreMissing);
      await rename(path, rotatedPath(path, 1));
    }
    await this.openFile();
  }
}

function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err;
}
