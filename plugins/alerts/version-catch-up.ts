import type { LlmService, Store } from '@vigil/plugin-sdk';
import type { AlertEngine } from './engine.js';

const CURSOR = 'prompt_versions';
/** Read again behind the cursor: a version stamped a little before a slower process stored it is still seen. */
const OVERLAP_MS = 10 * 60_000;
const PAGE = 500;

/**
 * The catch-up of `prompt_version_change` rules: the inline firing runs in the process that won the version's insert,
 * and is lost if that process dies; each tick reads the versions made since the cursor and fires any not yet fired
 * (event ids name the version, so nothing fires twice). The first run starts from now: old versions are not news.
 */
export async function catchUpVersions(store: Store, llm: LlmService, engine: AlertEngine, now: number): Promise<number> {
  const table = store.table('cursors');
  const [row] = await store.query<{ at: number | string }>(`SELECT at FROM ${table} WHERE name = ?`, [CURSOR]);
  let made = 0;
  let cursor = row ? Number(row.at) : now;
  if (row) {
    for (let since = cursor - OVERLAP_MS; ;) {
      const page = await llm.promptVersions(since, PAGE);
      for (const change of page) {
        made += await engine.promptVersion(change);
        cursor = Math.max(cursor, change.created_at);
      }
      if (page.length < PAGE) break;
      // Versions stamped in the same ms as the page's last are read again; events deduplicate them.
      since = page[page.length - 1].created_at === since ? since + 1 : page[page.length - 1].created_at;
    }
  }
  await store.run(`INSERT INTO ${table} (name, at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET at = excluded.at`, [CURSOR, cursor]);
  return made;
}
