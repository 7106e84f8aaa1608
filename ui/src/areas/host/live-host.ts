// This machine now, for the overview: the full reading the page opens with (GET /api/host/live), then each 2 s live
// sample from the stream while the page is open and the tab visible, and the last minutes of the figures the
// sparklines draw.
import { useState } from 'preact/hooks';
import { useLive } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import type { ApiError } from '../../data/api-error.js';
import { LIVE_TOPIC, type LiveReading } from './host-api.js';
import { pushWindow } from './sparkline-path.js';

/** Points the sparklines keep: five minutes of 2 s samples. */
export const WINDOW_POINTS = 150;

/** The lines the sparklines draw, oldest first. */
export interface LiveLines {
  cpu: (number | null)[];
  memory: (number | null)[];
  rx: (number | null)[];
  tx: (number | null)[];
  read: (number | null)[];
  write: (number | null)[];
}

export const NO_LINES: LiveLines = { cpu: [], memory: [], rx: [], tx: [], read: [], write: [] };

/** The sum of the values present; null when none is (rates need two readings). */
export function sumPresent(values: readonly (number | null)[]): number | null {
  let total: number | null = null;
  for (const v of values) if (v !== null) total = (total ?? 0) + v;
  return total;
}

/** The figures a reading adds to the lines. Disk I/O counts whole disks only, so a partition's bytes are not counted twice. */
export function lineFigures(r: LiveReading): { [K in keyof LiveLines]: number | null } {
  const disks = r.disk_io.some((d) => d.whole_disk) ? r.disk_io.filter((d) => d.whole_disk) : r.disk_io;
  return {
    cpu: r.cpu.total?.busy ?? null,
    memory: r.memory?.percent ?? null,
    rx: sumPresent(r.network.map((i) => i.rx_bps)),
    tx: sumPresent(r.network.map((i) => i.tx_bps)),
    read: sumPresent(disks.map((d) => d.read_bps)),
    write: sumPresent(disks.map((d) => d.write_bps)),
  };
}

/** The window after `reading`: each line gains its figure, the oldest falls off past WINDOW_POINTS. */
export function addReading(lines: LiveLines, reading: LiveReading): LiveLines {
  const f = lineFigures(reading);
  const next = {} as LiveLines;
  for (const key of Object.keys(NO_LINES) as (keyof LiveLines)[]) next[key] = pushWindow(lines[key], f[key], WINDOW_POINTS);
  return next;
}

export interface LiveHost {
  now: LiveReading | undefined;
  lines: LiveLines;
  error: ApiError | undefined;
  reload(): void;
}

/** The first reading, then the stream; a stream sample replaces it as soon as one arrives. */
export function useLiveHost(): LiveHost {
  const first = useResource<LiveReading>('/api/host/live', 'this machine\'s figures');
  const [live, setLive] = useState<{ now: LiveReading; lines: LiveLines }>();
  useLive(LIVE_TOPIC, (data) => {
    const reading = data as LiveReading;
    setLive((s) => ({ now: reading, lines: addReading(s?.lines ?? (first.data ? addReading(NO_LINES, first.data) : NO_LINES), reading) }));
  });
  const now = live?.now ?? first.data;
  return {
    now,
    lines: live?.lines ?? (first.data ? addReading(NO_LINES, first.data) : NO_LINES),
    error: now ? undefined : first.error,
    reload: first.reload,
  };
}
