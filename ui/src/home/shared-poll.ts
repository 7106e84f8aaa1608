// One request per path for every widget that reads it: CPU, memory, temperature and uptime all show /api/overview,
// which is fetched once per cadence, not once per tile. Polling runs while a widget is mounted and the tab visible.
import { useEffect, useState } from 'preact/hooks';
import { getJson, isAbort } from '../data/api.js';
import type { ApiError } from '../data/api-error.js';
import { whileVisible } from '../data/live-stream.js';

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** When `data` arrived (ms), for "updated 5 s ago". */
  at: number | undefined;
}

interface Entry {
  state: Polled<unknown>;
  listeners: Set<(state: Polled<unknown>) => void>;
  stop: () => void;
  inFlight?: AbortController;
}

const entries = new Map<string, Entry>();

function fetchInto(path: string, entry: Entry): void {
  // A slow answer is not stacked under the next tick: the tick waits for it.
  if (entry.inFlight) return;
  const controller = new AbortController();
  entry.inFlight = controller;
  getJson<unknown>(path, { signal: controller.signal }).then(
    (data) => { entry.state = { data, error: undefined, at: Date.now() }; },
    (error: ApiError) => { if (!isAbort(error)) entry.state = { ...entry.state, error }; },
  ).finally(() => {
    if (entry.inFlight === controller) entry.inFlight = undefined;
    if (!controller.signal.aborted) for (const l of entry.listeners) l(entry.state);
  });
}

function subscribe(path: string, ms: number, listener: (state: Polled<unknown>) => void): () => void {
  let entry = entries.get(path);
  if (!entry) {
    const created: Entry = { state: { data: undefined, error: undefined, at: undefined }, listeners: new Set(), stop: () => {} };
    entries.set(path, created);
    created.stop = whileVisible(document, () => fetchInto(path, created), ms, {
      setInterval: (f, t) => setInterval(f, t),
      clearInterval: (id) => clearInterval(id as number),
      now: () => Date.now(),
    });
    fetchInto(path, created);
    entry = created;
  }
  entry.listeners.add(listener);
  if (entry.state.at !== undefined || entry.state.error) listener(entry.state);
  const mine = entry;
  return () => {
    mine.listeners.delete(listener);
    if (mine.listeners.size) return;
    mine.stop();
    mine.inFlight?.abort();
    entries.delete(path);
  };
}

/**
 * GETs `path` every `ms` while mounted and the tab is visible, shared with every other widget on the same path (the
 * first one's cadence holds). `null`: nothing to load.
 */
export function usePolled<T>(path: string | null, ms: number): Polled<T> {
  const [state, setState] = useState<Polled<T>>({ data: undefined, error: undefined, at: undefined });
  useEffect(() => {
    if (path === null) return;
    return subscribe(path, ms, (s) => setState(s as Polled<T>));
  }, [path, ms]);
  return state;
}
