/** The `.trashinfo` file of the freedesktop trash spec (1.0): a `[Trash Info]` group with Path and DeletionDate. */
export interface TrashInfo {
  /** The original absolute path. */
  path: string;
  /** As written: local time, `YYYY-MM-DDThh:mm:ss`. */
  deletionDate: string;
}

/** Path is URI-escaped byte by byte (UTF-8), `/` kept: a name with a newline or `%` survives the round trip. */
export function encodeTrashPath(path: string): string {
  return path.split('/').map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('/');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The spec's DeletionDate: the local time, without a zone. */
export function deletionDate(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

export function formatTrashInfo(info: TrashInfo): string {
  return `[Trash Info]\nPath=${encodeTrashPath(info.path)}\nDeletionDate=${info.deletionDate}\n`;
}

/** Reads a `.trashinfo`; undefined when it lacks the group or a Path (another program's broken file). */
export function parseTrashInfo(text: string): TrashInfo | undefined {
  let inGroup = false;
  let path: string | undefined;
  let date = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) { inGroup = line === '[Trash Info]'; continue; }
    if (!inGroup) continue;
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key === 'Path' && path === undefined) {
      try { path = decodeURIComponent(value); } catch { return undefined; }
    } else if (key === 'DeletionDate' && !date) {
      date = value;
    }
  }
  return path === undefined ? undefined : { path, deletionDate: date };
}

/** DeletionDate as epoch ms (read as local time); null when it is not in the spec's form. */
export function deletionTime(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(date);
  if (!m) return null;
  return new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]).getTime();
}
