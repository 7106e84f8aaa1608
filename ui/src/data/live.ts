// The app's one live stream, and the hooks pages use: `useLive(topic, handler)` and `useWhileVisible(fn, ms)`.
import { signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { getJson } from './api.js';
import { LiveStream, whileVisible, type StreamStatus } from './live-stream.js';

/** The stream's state, for the shell's live indicator. */
export const streamStatus = signal<StreamStatus>('idle');

let stream: LiveStream | undefined;

function liveStream(): LiveStream {
  stream ??= new LiveStream({
    createSource: (url) => new EventSource(url),
    visibility: document,
    schedule: (fn, ms) => {
      const id = setTimeout(fn, ms);
      return () => clearTimeout(id);
    },
    onStatus: (status) => { streamStatus.value = status; },
    // A refused stream is most often an ended session: any API call then takes the person to the login form.
    onRefused: () => { getJson('/api/ui/shell').catch(() => {}); },
  });
  return stream;
}

/** Calls `handler` with each event on `topic` while the component is mounted (and the tab visible). */
export function useLive(topic: string, handler: (data: unknown) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => liveStream().subscribe(topic, (data) => latest.current(data)), [topic]);
}

/** Runs `fn` every `ms` while mounted and the tab is visible (the dashboard's only polling). */
export function useWhileVisible(fn: () => void, ms: number): void {
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => whileVisible(document, () => latest.current(), ms, {
    setInterval: (f, t) => setInterval(f, t),
    clearInterval: (id) => clearInterval(id as number),
    now: () => Date.now(),
  }), [ms]);
}
