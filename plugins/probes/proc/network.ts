import { readText } from './read-text.js';

/** Cumulative counters of one interface since boot (they wrap or reset when a driver reloads). */
export interface InterfaceCounters {
  name: string;
  rxBytes: number; rxPackets: number; rxErrors: number; rxDropped: number;
  txBytes: number; txPackets: number; txErrors: number; txDropped: number;
}

/** One entry per interface in /proc/net/dev (the loopback included: callers decide whether to show it). */
export async function readNetwork(root = '/'): Promise<InterfaceCounters[]> {
  const text = await readText(root, 'proc/net/dev');
  return text === undefined ? [] : parseNetwork(text);
}

/** /proc/net/dev's text, one entry per interface. */
export function parseNetwork(text: string): InterfaceCounters[] {
  const out: InterfaceCounters[] = [];
  // The first two lines are headers; each other line is `name: 8 receive fields 8 transmit fields`.
  for (const line of text.split('\n').slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const f = line.slice(colon + 1).trim().split(/\s+/).map(Number);
    if (f.length < 16 || f.some((n) => !Number.isFinite(n))) continue;
    out.push({
      name: line.slice(0, colon).trim(),
      rxBytes: f[0], rxPackets: f[1], rxErrors: f[2], rxDropped: f[3],
      txBytes: f[8], txPackets: f[9], txErrors: f[10], txDropped: f[11],
    });
  }
  return out;
}
