// Turning an engine's list answer (JSON up to MAX_LIST_BYTES, a kubeconfig's pods up to four times that) into rows.
// A large answer is parsed in a worker thread: JSON.parse of several MiB holds a thread for tens of milliseconds, which
// the event loop that serves every other request must not pay. A small one (most machines) is parsed in place, where
// the worker hop would cost more than the parse.
import { dockerRows } from './docker-engine.js';
import { podRows } from './kube-engine.js';
import { lxdRows } from './lxd-engine.js';
import { nerdctlRows } from './nerdctl-engine.js';
import type { ListFormat, ListParser, ParsedList } from './types.js';

export const LIST_PARSE_TASK_URL = new URL('./list-parse-task.js', import.meta.url);

/** Answers up to this many bytes are parsed on the calling thread. */
export const IN_PLACE_BYTES = 256 * 1024;

/** Parses a list answer of `format` (the work a worker does for a large one). */
export function parseList(format: ListFormat, body: Uint8Array): ParsedList {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  // nerdctl's CLI prints one JSON object a line, not one document.
  if (format === 'nerdctl') return { containers: nerdctlRows(text), pods: [], more: false };
  const value = JSON.parse(text) as unknown;
  if (format === 'kubernetes') {
    const list = value as { items?: Parameters<typeof podRows>[0]; metadata?: { continue?: string } };
    return { containers: [], pods: podRows(list.items ?? []), more: Boolean(list.metadata?.continue) };
  }
  if (format === 'lxd' || format === 'incus') {
    return { containers: lxdRows(format, (value as { metadata?: Parameters<typeof lxdRows>[1] }).metadata ?? []), pods: [], more: false };
  }
  return { containers: dockerRows(format, value as Parameters<typeof dockerRows>[1]), pods: [], more: false };
}

export const parseInPlace: ListParser = async (format, body) => parseList(format, body);

/** A parser that sends answers over IN_PLACE_BYTES to `offload` (a worker pool's `run`). */
export function offloadingParser(offload: (task: { format: ListFormat; body: Uint8Array }) => Promise<ParsedList>): ListParser {
  return (format, body) => (body.length <= IN_PLACE_BYTES ? Promise.resolve(parseList(format, body)) : offload({ format, body: new Uint8Array(body) }));
}
