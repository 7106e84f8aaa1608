import { readText } from './read-text.js';

/** Run-queue averages over 1, 5 and 15 minutes, and the runnable and total task counts, from /proc/loadavg. */
export interface LoadAverage { load1: number; load5: number; load15: number; running: number; tasks: number }

export async function readLoadAverage(root = '/'): Promise<LoadAverage | undefined> {
  const text = await readText(root, 'proc/loadavg');
  return text === undefined ? undefined : parseLoadAverage(text);
}

/** /proc/loadavg's text. */
export function parseLoadAverage(text: string): LoadAverage | undefined {
  const fields = text.trim().split(/\s+/);
  if (!fields || fields.length < 4) return undefined;
  const [running, tasks] = fields[3].split('/').map(Number);
  const [load1, load5, load15] = fields.slice(0, 3).map(Number);
  if (![load1, load5, load15].every(Number.isFinite)) return undefined;
  return { load1, load5, load15, running: running || 0, tasks: tasks || 0 };
}
