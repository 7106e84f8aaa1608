import type { JsonSchema } from '@vigil/plugin-sdk';
import type { LogSource } from '../logs/log-line.js';
import { MAX_PATTERN_CHARS } from './pattern-check.js';

/** A regex over the new lines of one source (perch's logwatch rule, with `ignore_case` added). */
export interface Watcher {
  name: string;
  pattern: string;
  ignore_case: boolean;
  source: LogSource;
  /** For `file`: an absolute path under the allowed folders. */
  path: string | null;
  enabled: boolean;
}

/** Everything the watchers' API takes and answers: on or off as a whole, and the list. */
export interface WatcherConfig { enabled: boolean; rules: Watcher[] }

/** perch's bounds: at most 20 watchers, polled every 20 s, a line de-duplicated for 5 minutes. */
export const MAX_WATCHERS = 20;
export const POLL_INTERVAL_MS = 20_000;
export const DEDUP_MS = 5 * 60_000;
/** New lines read per source and poll at most: a flood between two polls keeps its newest lines. */
export const MAX_LINES_PER_POLL = 1000;
/** Recorded matches are kept this long (the alert windows and the API's recent lines read them). */
export const MATCH_RETENTION_MS = 7 * 24 * 3_600_000;

/** The alert source each watcher is a scope of: `host.log_match` with `target` = the watcher's name. */
export const LOG_MATCH_SOURCE = 'host.log_match';

/** Where a watcher's lines come from, shared by the watchers reading the same place. */
export function sourceKey(w: Pick<Watcher, 'source' | 'path'>): string {
  return w.source === 'file' ? `file:${w.path}` : `journal:${w.source}`;
}

export const WATCHER_SCHEMA: JsonSchema = {
  title: 'LogWatcher',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'pattern', 'source'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 60, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._:-]*$', description: 'The alert rules\' scope.target.' },
    pattern: { type: 'string', minLength: 1, maxLength: MAX_PATTERN_CHARS, description: 'A JavaScript regular expression, matched against each line.' },
    ignore_case: { type: 'boolean', default: false },
    source: { enum: ['system', 'user', 'kernel', 'file'] },
    path: { type: ['string', 'null'], maxLength: 4096, description: 'For source=file: an absolute path under the allowed folders.' },
    enabled: { type: 'boolean', default: true },
  },
};

export const WATCHER_CONFIG_SCHEMA: JsonSchema = {
  title: 'LogWatcherConfig',
  type: 'object',
  additionalProperties: false,
  required: ['rules'],
  properties: {
    enabled: { type: 'boolean', default: true },
    rules: { type: 'array', maxItems: MAX_WATCHERS, items: WATCHER_SCHEMA },
  },
};

/** A watcher from the API's body, with its defaults. */
export function normaliseWatcher(input: Partial<Watcher> & Pick<Watcher, 'name' | 'pattern' | 'source'>): Watcher {
  return {
    name: input.name, pattern: input.pattern, ignore_case: input.ignore_case ?? false, source: input.source,
    path: input.source === 'file' ? input.path ?? null : null, enabled: input.enabled ?? true,
  };
}
