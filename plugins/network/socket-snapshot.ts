import { findSocketOwners } from './proc/socket-owners.js';
import { readManyFacts, type ProcessFacts } from './proc/process-facts.js';
import { readSockets, type SocketEntry } from './proc/socket-table.js';
import { userNames } from './proc/user-names.js';

/** Every socket with the processes holding it, as one reading: what the ports and the connections tables are cut from. */
export interface SocketSnapshot {
  at: number;
  sockets: SocketEntry[];
  owners: Map<number, number[]>;
  facts: Map<number, ProcessFacts>;
  userName: (uid: number) => string;
  /** Processes whose descriptors Vigil may not read (not root): their sockets show no process. */
  hidden: number;
  /** The descriptor walk hit its time budget. */
  partial: boolean;
  /** More sockets than one file's bound: the tables are in part. */
  truncated: boolean;
}

export interface SnapshotOptions {
  root: string;
  /** The descriptor walk's time budget, ms. */
  budgetMs: number;
  /** A reading younger than this is answered again; default 0: only callers that ask while a walk runs share it. */
  reuseMs?: number;
  now?: () => number;
}

/** Readings of the sockets and their owners, concurrent callers sharing one walk. */
export class SocketSnapshots {
  private last: SocketSnapshot | undefined;
  private inFlight: Promise<SocketSnapshot> | undefined;
  private readonly users: () => Promise<(uid: number) => string>;
  private readonly now: () => number;

  constructor(private readonly o: SnapshotOptions) {
    this.now = o.now ?? Date.now;
    this.users = userNames(o.root, this.now);
  }

  /** A reading at most `reuseMs` old, or the one under way (a page and a widget asking together walk /proc once). */
  read(): Promise<SocketSnapshot> {
    if (this.last && this.now() - this.last.at < (this.o.reuseMs ?? 0)) return Promise.resolve(this.last);
    if (this.inFlight) return this.inFlight;
    const reading = this.take().finally(() => { if (this.inFlight === reading) this.inFlight = undefined; });
    this.inFlight = reading;
    return reading;
  }

  private async take(): Promise<SocketSnapshot> {
    const at = this.now();
    // The tables and the walk at once: the kernel writes /proc/net/tcp while the descriptor links are read. The walk
    // records every socket it meets; only owners of sockets in the tables are looked up.
    const [{ sockets, truncated }, walk, userName] = await Promise.all([
      readSockets(this.o.root), findSocketOwners(this.o.root, undefined, this.o.budgetMs, this.now), this.users(),
    ]);
    const listed = new Set(sockets.map((s) => s.inode));
    for (const inode of walk.owners.keys()) if (!listed.has(inode)) walk.owners.delete(inode);
    const facts = await readManyFacts(this.o.root, [...walk.owners.values()].flat());
    const snapshot: SocketSnapshot = { at, sockets, owners: walk.owners, facts, userName, hidden: walk.hidden, partial: walk.partial, truncated };
    this.last = snapshot;
    return snapshot;
  }
}
