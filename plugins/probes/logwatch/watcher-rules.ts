import { createHash } from 'node:crypto';
import type { ManagedAlertRule } from '@vigil/plugin-sdk';
import { LOG_MATCH_SOURCE, type WatcherConfig } from './watcher.js';

/** The alert rules the log watchers own in the alerts engine: one per watcher, replaced with the list. */
export const WATCHER_RULE_PREFIX = 'host.logwatch.';

/** Matches are counted per minute, the engine's tick; one notice per 10 minutes at most (perch's cooldown). */
const WINDOW_MS = 60_000;
const COOLDOWN_MS = 10 * 60_000;

/**
 * Every watcher alerts, as in perch: its rule fires when a minute holds a new matching line. The id comes from the
 * watcher's name, so saving the list again keeps a rule's cooldown and its firing event. A watcher switched off, or
 * all of them, keeps its rule switched off.
 */
export function watcherRules(config: WatcherConfig): ManagedAlertRule[] {
  return config.rules.map((w) => ({
    id: `${WATCHER_RULE_PREFIX}${createHash('sha256').update(w.name).digest('hex').slice(0, 16)}`,
    name: `Log: ${w.name}`,
    enabled: config.enabled && w.enabled,
    source: LOG_MATCH_SOURCE,
    scope: { target: w.name },
    condition: { type: 'gt', threshold: 0 },
    window_ms: WINDOW_MS,
    cooldown_ms: COOLDOWN_MS,
    severity: 'warning',
  }));
}
