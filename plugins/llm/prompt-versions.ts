import { VigilError, type PromptVersionChange, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';

/** Races lost in a row before giving up (the job is retried): each loss means another process made a version. */
const MAX_RACES = 50;
/** Versions remembered in this process: a version never changes once made, so a hit needs no query. */
const MAX_CACHED = 10_000;

export interface ResolvedVersion {
  version: number;
  /** True when this call made it (N+1). */
  created: boolean;
  /** When this call made it: what the caller announces on `llm.prompt_version_change`. */
  change?: PromptVersionChange;
}

/**
 * Prompt versions per (project, template): a text hash not seen before becomes the next number. Atomic across
 * processes without a lock: the insert computes MAX+1 and does nothing on a conflict, either with the (project,
 * template, hash) of a process that made the same version first (then it is read back) or with the number a
 * process took for another text first (then the next number is tried). Numbers have no gaps and no repeats, since
 * only an insert that won makes one.
 */
export class PromptVersions {
  private readonly table: string;
  private readonly cache = new Map<string, number>();

  constructor(private readonly store: Store) {
    this.table = store.table('prompt_versions');
  }

  /** `text` is asked for only when the version may have to be made: a known version costs no redaction. */
  async resolve(project: { id: string; name: string }, template: string, hash: string, text: string | (() => string), now: number): Promise<ResolvedVersion> {
    const key = `${project.id}\u0000${template}\u0000${hash}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return { version: cached, created: false };
    const t = this.table;
    let kept: string | undefined;
    for (let race = 0; race < MAX_RACES; race++) {
      const found = await this.store.query<{ version: number }>(
        `SELECT version FROM ${t} WHERE project_id = ? AND template = ? AND hash = ?`, [project.id, template, hash]);
      if (found.length) return { version: this.remember(key, Number(found[0].version)), created: false };
      kept ??= typeof text === 'string' ? text : text();
      const made = await this.store.query<{ version: number }>(
        `INSERT INTO ${t} (project_id, template, version, hash, text, created_at)
         SELECT ?, ?, COALESCE(MAX(version), 0) + 1, ?, ?, ? FROM ${t} WHERE project_id = ? AND template = ?
         ON CONFLICT DO NOTHING RETURNING version`,
        [project.id, template, hash, kept, now, project.id, template]);
      if (made.length) {
        const version = this.remember(key, Number(made[0].version));
        const change: PromptVersionChange = {
          project_id: project.id, project: project.name, template, version,
          previous_version: version > 1 ? version - 1 : null, hash, created_at: now,
        };
        return { version, created: true, change };
      }
      // Lost a race: back off a little, so a crowd of workers does not retry in lockstep.
      await new Promise((r) => setTimeout(r, Math.random() * 5 * (race + 1)));
    }
    throw new VigilError(LlmErrors.PERSIST_ITEM, `prompt template "${template}": lost ${MAX_RACES} races for its next version number; the batch is retried`);
  }

  private remember(key: string, version: number): number {
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(key, version);
    return version;
  }
}
