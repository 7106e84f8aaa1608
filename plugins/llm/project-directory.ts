import { effectiveSettings } from './effective-settings.js';
import { KeyCache } from './key-cache.js';
import type { ProjectRow, ProjectStore } from './project-store.js';
import type { LlmProject, PlanSettings, ProjectSettings } from './types.js';

/** How long the persist stage trusts a project's settings (its redaction rules) without reading them again. */
export const PROJECT_TTL_MS = 5_000;

/**
 * Projects as ingest, the persist stage and the API use them: rows of the store with `llm.defaults` filled in. Key
 * lookups are cached 1 s and never past the key's grace (key-cache.ts); lookups by id 5 s. A change made in this
 * process clears both at once.
 */
export class ProjectDirectory {
  private readonly keys: KeyCache<LlmProject>;
  private readonly byIdCache = new Map<string, { until: number; project: Promise<LlmProject | undefined> }>();

  constructor(
    readonly store: ProjectStore,
    private defaults: { settings: ProjectSettings; maxBodyBytes: number; plans?: Readonly<Record<string, PlanSettings>> },
    private readonly now: () => number = Date.now,
  ) {
    this.keys = new KeyCache(async (hash) => {
      const found = await store.byKeyHash(hash);
      return found ? { value: this.toProject(found.project), expires_at: found.expires_at } : null;
    }, now);
  }

  /** New `llm.defaults` and `llm.plans` (a reload): every cached project is rebuilt on its next lookup. */
  setDefaults(settings: ProjectSettings, maxBodyBytes: number, plans: Readonly<Record<string, PlanSettings>> = {}): void {
    this.defaults = { settings, maxBodyBytes, plans };
    this.clear();
  }

  /** The plans of `llm.plans`, by name. */
  plans(): Readonly<Record<string, PlanSettings>> {
    return this.defaults.plans ?? {};
  }

  toProject(row: ProjectRow): LlmProject {
    return { id: row.id, name: row.name, source: row.source, settings: effectiveSettings(row.settings, this.defaults.settings, this.defaults.maxBodyBytes, this.defaults.plans) };
  }

  byKey(key: string): Promise<LlmProject | null> {
    return this.keys.lookup(key);
  }

  byId(id: string): Promise<LlmProject | undefined> {
    const now = this.now();
    const hit = this.byIdCache.get(id);
    if (hit && hit.until > now) return hit.project;
    if (this.byIdCache.size > 1000) this.byIdCache.clear();
    const project = this.store.getById(id).then((row) => (row ? this.toProject(row) : undefined));
    project.catch(() => this.byIdCache.delete(id));
    this.byIdCache.set(id, { until: now + PROJECT_TTL_MS, project });
    return project;
  }

  clear(): void {
    this.keys.clear();
    this.byIdCache.clear();
  }
}
