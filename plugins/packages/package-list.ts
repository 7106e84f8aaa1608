import type { PackageManager } from '@vigil/plugin-sdk';
import type { ManagerListing, PackageRow } from './package-row.js';

/** How long a manager's listing (installed and updates: apt's simulation takes seconds) is reused, in ms. */
export const LIST_TTL_MS = 30_000;
/** Rows one answer carries at most, and by default. */
export const MAX_ROWS = 2_000;
export const DEFAULT_ROWS = 200;

export type Reader = (manager: PackageManager, updates: boolean, signal: AbortSignal) => Promise<ManagerListing>;

interface Cached { at: number; updates: boolean; listing: ManagerListing }

export interface ListQuery {
  q?: string;
  updatable?: boolean;
  sort: 'name' | 'size';
  limit: number;
}

export interface ListAnswer {
  rows: PackageRow[];
  total: number;
  matched: number;
  updatable: number;
  truncated: boolean;
  updates_known: boolean;
  note: string | null;
  read_at: string;
}

/**
 * Each manager's listing, read at most once per LIST_TTL_MS, one read in flight per manager and kind; filtered, sorted and cut on the server, so a page never receives thousands of rows.
 */
export class PackageLists {
  private readonly cache = new Map<PackageManager, Cached>();
  private readonly inFlight = new Map<string, Promise<Cached>>();
  private readonly abort = new AbortController();

  constructor(private readonly read: Reader, private readonly now: () => number = Date.now) {}

  private async listing(manager: PackageManager, updates: boolean): Promise<Cached> {
    const cached = this.cache.get(manager);
    const age = cached ? this.now() - cached.at : Infinity;
    if (cached && age < LIST_TTL_MS && (cached.updates || !updates)) return cached;
    const key = `${manager}:${updates}`;
    let running = this.inFlight.get(key);
    if (!running) {
      running = this.read(manager, updates, this.abort.signal).then((listing) => {
        const entry = { at: this.now(), updates: updates && listing.updates_known, listing };
        this.cache.set(manager, entry);
        return entry;
      }).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, running);
    }
    return running;
  }

  /** Forgets a manager's lists: a package job changed what is installed. */
  invalidate(manager: PackageManager): void {
    this.cache.delete(manager);
  }

  /** Kills reads in flight (the plugin stops). */
  stop(): void {
    this.abort.abort();
  }

  async query(manager: PackageManager, query: ListQuery): Promise<ListAnswer> {
    const { listing, at } = await this.listing(manager, true);
    const needle = query.q?.trim().toLowerCase();
    let matched = listing.rows.filter((r) => (!query.updatable || r.new_version !== null)
      && (!needle || r.name.toLowerCase().includes(needle) || r.description.toLowerCase().includes(needle)));
    matched = query.sort === 'size'
      ? matched.sort((a, b) => (b.size_bytes ?? -1) - (a.size_bytes ?? -1) || a.name.localeCompare(b.name))
      : matched.sort((a, b) => a.name.localeCompare(b.name));
    return {
      rows: matched.slice(0, query.limit), total: listing.rows.length, matched: matched.length,
      updatable: listing.rows.filter((r) => r.new_version !== null).length, truncated: matched.length > query.limit,
      updates_known: listing.updates_known, note: listing.note, read_at: new Date(at).toISOString(),
    };
  }

  /** The installed row of `name`, or undefined. */
  async find(manager: PackageManager, name: string): Promise<PackageRow | undefined> {
    const { listing } = await this.listing(manager, false);
    return listing.rows.find((r) => r.name === name);
  }
}
