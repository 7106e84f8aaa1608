import { readKernelTunables, type KernelTunable } from './proc/kernel-tunables.js';

/** The walk of /proc/sys (about 1,000 files) is kept this long, so typing in the search box does not repeat it. */
const CACHE_MS = 30_000;

/** Read-only sysctl values with search: one cached walk, filtered per request, at most `limit` rows answered. */
export class KernelTable {
  private cached: { at: number; all: Promise<KernelTunable[]> } | undefined;

  constructor(private readonly root: string, private readonly now: () => number = Date.now) {}

  async search(query: string | undefined, limit: number): Promise<{ total: number; tunables: KernelTunable[] }> {
    if (!this.cached || this.now() - this.cached.at >= CACHE_MS) {
      const all = readKernelTunables(this.root);
      this.cached = { at: this.now(), all };
      all.catch(() => { if (this.cached?.all === all) this.cached = undefined; });
    }
    const q = query?.trim().toLowerCase();
    const all = await this.cached.all;
    const hits = q ? all.filter((t) => t.key.toLowerCase().includes(q) || t.value.toLowerCase().includes(q)) : all;
    return { total: hits.length, tunables: hits.slice(0, limit) };
  }
}
