import { open, realpath } from 'node:fs/promises';
import { isAbsolute, sep } from 'node:path';
import { clip, type LogLine } from './log-line.js';

/** Bytes read from a file at most per read: the tail of a huge log, never the whole of it. */
export const FILE_TAIL_BYTES = 1024 * 1024;

export class LogFileRefused extends Error {}

/**
 * The real path of `path` when it is a regular file inside one of the `allowed` folders (symbolic links resolved
 * first, so a link under /var/log that points at /etc/shadow is refused). Throws `LogFileRefused` saying why.
 */
export async function allowedLogFile(path: string, allowed: readonly string[]): Promise<string> {
  if (!isAbsolute(path) || path.includes('\0') || path.length > 4096) throw new LogFileRefused(`path: "${path.slice(0, 200)}" is not an absolute path`);
  let real: string;
  try { real = await realpath(path); } catch { throw new LogFileRefused(`path: ${path} does not exist or cannot be read`); }
  for (const dir of allowed) {
    let root: string;
    try { root = await realpath(dir); } catch { continue; }
    if (real.startsWith(root.endsWith(sep) ? root : root + sep)) return real;
  }
  throw new LogFileRefused(`path: ${path} is outside the folders logs may be read from (${allowed.join(', ') || 'none'})`);
}

/** Where a file read ended: the file's inode and the byte offset, so the next read starts there (`ino:offset`). */
export function fileCursor(ino: number, offset: number): string {
  return `${ino}:${offset}`;
}

export function parseFileCursor(cursor: string): { ino: number; offset: number } | undefined {
  const m = /^(\d{1,20}):(\d{1,20})$/.exec(cursor);
  return m ? { ino: Number(m[1]), offset: Number(m[2]) } : undefined;
}

export interface FileRead {
  lines: string[];
  cursor: string;
  /** True when more bytes were there than `FILE_TAIL_BYTES`: the oldest were skipped. */
  truncated: boolean;
}

/**
 * The complete lines of `path` after `cursor` (or its tail without one), reading at most `maxBytes` from the end.
 * A file that was rotated (another inode) or truncated (shorter than the cursor) is read from its start. A last line
 * without its newline yet is left for the next read.
 */
export async function readLogFile(path: string, cursor?: string, maxBytes = FILE_TAIL_BYTES): Promise<FileRead> {
  const handle = await open(path, 'r');
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new LogFileRefused(`path: ${path} is not a regular file`);
    const after = cursor ? parseFileCursor(cursor) : undefined;
    const resume = after && after.ino === stat.ino && after.offset <= stat.size ? after.offset : undefined;
    const wanted = resume ?? (cursor ? 0 : Math.max(0, stat.size - maxBytes));
    const start = Math.max(wanted, stat.size - maxBytes);
    const length = stat.size - start;
    const buffer = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await handle.read(buffer, got, length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    let text = buffer.subarray(0, got).toString('utf8');
    let consumed = got;
    // A read that starts mid-file starts mid-line: that first fragment is not a line.
    if (start > 0 && start !== resume) {
      const nl = text.indexOf('\n');
      text = nl < 0 ? '' : text.slice(nl + 1);
    }
    const lastNl = text.lastIndexOf('\n');
    if (lastNl < text.length - 1) {
      consumed -= Buffer.byteLength(text.slice(lastNl + 1));
      text = text.slice(0, lastNl + 1);
    }
    const lines = text.split('\n').slice(0, -1).map((l) => clip(l.endsWith('\r') ? l.slice(0, -1) : l));
    return { lines, cursor: fileCursor(stat.ino, start + consumed), truncated: start > wanted };
  } finally {
    await handle.close();
  }
}

/** File lines as `LogLine`s: a file has no priority, unit or pid of its own. */
export function fileLines(lines: string[]): LogLine[] {
  return lines.map((message) => ({ time: null, priority: null, unit: null, pid: null, message }));
}
