import type { AlertSource } from '@vigil/plugin-sdk';
import { LOG_MATCH_SOURCE, sourceKey } from './watcher.js';
import type { WatcherStore } from './watcher-store.js';

/**
 * `host.log_match`: the lines a log watcher recorded in the window (each line once per 5 minutes), scoped by
 * `target` = the watcher's name. A window counts as observed (`samples` 1) when the watcher's source was read at or
 * after its start; a source that could not be read gives no verdict, so a rule neither fires nor resolves on it.
 */
export function logMatchSource(store: WatcherStore): AlertSource {
  return {
    id: LOG_MATCH_SOURCE,
    summary: 'Lines a log watcher matched in the window (scope target: the watcher\'s name; GET /api/logwatch lists them)',
    unit: 'count',
    scopes: ['target'],
    requiredScopes: ['target'],
    async read(window, scope) {
      const watcher = (await store.config()).rules.find((w) => w.name === scope.target);
      if (!watcher) throw new Error(`there is no log watcher "${scope.target}" (GET /api/logwatch lists them)`);
      const [cursor, n] = await Promise.all([store.cursor(sourceKey(watcher)), store.count(watcher.name, window.from, window.to)]);
      const observed = n > 0 || (cursor?.polled_at !== null && cursor?.polled_at !== undefined && cursor.polled_at >= window.from);
      return observed ? { value: n, samples: 1 } : { value: null, samples: 0 };
    },
  };
}
