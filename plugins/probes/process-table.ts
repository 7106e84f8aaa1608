import { readMemory } from './proc/memory.js';
import { readProcesses, topProcesses, type ProcessReading } from './proc/processes.js';

/** CPU shares need two readings: without a recent one, the second is taken this long after the first. */
const WINDOW_MS = 500;
/** A reading older than this is too old a base (shares over minutes hide what runs now). */
const STALE_MS = 30_000;
/** A reading younger than this is answered again: several pages polling share one walk of /proc. */
const REUSE_MS = 1000;
/** Characters of a command line an answer carries (a Java or Chrome command line runs to kilobytes). */
const COMMAND_MAX = 1000;

export interface ProcessRow {
  pid: number; ppid: number; name: string; state: string;
  cpu_percent: number; rss_bytes: number; mem_percent: number; command: string;
}

interface Reading { at: number; processes: ProcessReading[]; memTotal: number }

/**
 * The top processes by CPU or memory, with search. Each answer walks /proc once (32 processes at a time), against
 * the previous walk as the CPU base; concurrent requests share a walk. Work per answer grows with the number of
 * processes (a few thousand at most on a busy server), the answer is at most `limit` rows.
 */
export class ProcessTable {
  private previous: Reading | undefined;
  private current: Reading | undefined;
  private inFlight: Promise<{ before: Reading; after: Reading }> | undefined;

  constructor(private readonly root: string, private readonly now: () => number = Date.now) {}

  private async readOnce(): Promise<Reading> {
    const [processes, memory] = await Promise.all([readProcesses(this.root), readMemory(this.root)]);
    return { at: this.now(), processes, memTotal: memory?.total ?? 0 };
  }

  private async pair(): Promise<{ before: Reading; after: Reading }> {
    const last = this.current;
    if (last && this.previous && this.now() - last.at < REUSE_MS) return { before: this.previous, after: last };
    let before = last && this.now() - last.at < STALE_MS ? last : undefined;
    if (!before) {
      before = await this.readOnce();
      await new Promise((r) => setTimeout(r, WINDOW_MS));
    }
    const after = await this.readOnce();
    this.previous = before;
    this.current = after;
    return { before, after };
  }

  async top(by: 'cpu' | 'mem', limit: number, query?: string): Promise<{ total: number; interval_ms: number; processes: ProcessRow[] }> {
    this.inFlight ??= this.pair().finally(() => { this.inFlight = undefined; });
    const { before, after } = await this.inFlight;
    const elapsed = after.at - before.at;
    const q = query?.trim() || undefined;
    const all = topProcesses(before.processes, after.processes, elapsed, { by: by === 'mem' ? 'memory' : 'cpu', limit: Number.MAX_SAFE_INTEGER, query: q });
    return {
      total: all.length,
      interval_ms: elapsed,
      processes: all.slice(0, limit).map((p) => ({
        pid: p.pid, ppid: p.ppid, name: p.name, state: p.state,
        cpu_percent: p.cpuPercent, rss_bytes: p.rssBytes,
        mem_percent: after.memTotal > 0 ? Math.min(100, (p.rssBytes / after.memTotal) * 100) : 0,
        command: commandExcerpt(p.command, q, COMMAND_MAX),
      })),
    };
  }
}

/** Characters kept before the match when a long command line is cut to show it. */
const CONTEXT_BEFORE = 120;

/**
 * A command line cut to `max` characters. When a search matched it past the cut, the head is followed by " … " and
 * the part around the match, so every row a search returns shows why it matched.
 */
export function commandExcerpt(command: string, query: string | undefined, max: number): string {
  if (command.length <= max) return command;
  const at = query ? command.toLowerCase().indexOf(query.toLowerCase()) : -1;
  if (at < 0 || at + query!.length <= max) return command.slice(0, max);
  const gap = ' … ';
  const from = Math.max(0, at - CONTEXT_BEFORE);
  const tail = command.slice(from, from + Math.max(query!.length + CONTEXT_BEFORE, Math.floor(max / 2)));
  return command.slice(0, Math.max(0, max - gap.length - tail.length)) + gap + tail;
}
