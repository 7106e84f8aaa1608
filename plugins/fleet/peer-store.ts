import { httpError, type SecretBox, type Store } from '@vigil/plugin-sdk';
import { badPeer, FleetErrors, unknownPeer } from './errors.js';
import { normalisePeerUrl } from './peer-url.js';
import { tokenHint } from './read-tokens.js';

import { MAX_PEERS, type Peer, type PeerSettings } from './types.js';

/** What the browser sees of a machine: never its token. */
export interface PeerView {
  name: string;
  url: string;
  source: 'config' | 'store';
  token_hint: string;
}

/** A machine in `POST /api/fleetconfig`: the token may be left out for a machine already held, to keep its token. */
export interface PeerReplacement {
  name: string;
  url: string;
  token?: string;
}

interface Row { name: string; url: string; token: string; hint: string; created_at: number; [k: string]: unknown }

/**
 * The machines of the fleet: the config file's (`fleet.peers`, in memory, read-only here) and the dashboard's (the
 * store, tokens sealed). Names are unique across both.
 */
export class PeerStore {
  private readonly table: string;
  private configured: Peer[];

  constructor(private readonly store: Store, private readonly box: () => Promise<SecretBox>, configured: PeerSettings[], private readonly now: () => number = Date.now) {
    this.table = store.table('peers');
    this.configured = fromConfig(configured);
  }

  setConfigured(peers: PeerSettings[]): void {
    this.configured = fromConfig(peers);
  }

  /**
   * Every machine with its token, the config file's first: for the poller only. A token that does not open (another
   * key) makes that machine unusable, not the whole fleet.
   */
  async all(): Promise<Peer[]> {
    const rows = await this.rows();
    let box: SecretBox | Error | undefined;
    if (rows.length) box = await this.box().catch((err: Error) => err);
    return [
      ...this.configured,
      ...rows.map((r): Peer => {
        const peer: Peer = { name: r.name, url: r.url, token: '', source: 'store', hint: r.hint };
        try {
          if (box instanceof Error) throw box;
          peer.token = box!.unseal(r.token, r.name);
        } catch (err) {
          peer.unusable = `${(err as Error).message}; enter its token again`;
        }
        return peer;
      }),
    ];
  }

  async views(): Promise<PeerView[]> {
    const rows = await this.rows();
    return [
      ...this.configured.map((p) => ({ name: p.name, url: p.url, source: p.source, token_hint: p.hint })),
      ...rows.map((r) => ({ name: r.name, url: r.url, source: 'store' as const, token_hint: r.hint })),
    ];
  }

  async add(input: PeerSettings): Promise<PeerView> {
    const url = normalisePeerUrl(input.url);
    if (this.configured.some((p) => p.name === input.name)) throw httpError(FleetErrors.PEER_EXISTS, `a machine named "${input.name}" is declared in the config file (fleet.peers)`);
    const rows = await this.rows();
    if (rows.some((r) => r.name === input.name)) throw httpError(FleetErrors.PEER_EXISTS, `a machine named "${input.name}" is in the fleet already`);
    if (this.configured.length + rows.length >= MAX_PEERS) throw httpError(FleetErrors.TOO_MANY_PEERS, `the fleet holds ${MAX_PEERS} machines already`);
    const sealed = (await this.box()).seal(input.token, input.name);
    // The primary key settles a race between two adds of one name: the second insert fails, and is answered 409.
    const { changes } = await this.store.run(
      `INSERT INTO ${this.table} (name, url, token, hint, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
      [input.name, url, sealed, tokenHint(input.token), this.now()],
    );
    if (!changes) throw httpError(FleetErrors.PEER_EXISTS, `a machine named "${input.name}" is in the fleet already`);
    return { name: input.name, url, source: 'store', token_hint: tokenHint(input.token) };
  }

  /** Removes a dashboard machine and its last status. */
  async remove(name: string): Promise<void> {
    if (this.configured.some((p) => p.name === name)) throw httpError(FleetErrors.FROM_CONFIG, `machine "${name}" is declared in the config file; remove it from fleet.peers there`);
    const { changes } = await this.store.run(`DELETE FROM ${this.table} WHERE name = ?`, [name]);
    if (!changes) throw unknownPeer(name);
  }

  /**
   * Replaces the dashboard's machines with `hosts` (perch's `POST /api/fleetconfig`), in one transaction. A machine
   * given without a token keeps the token it has under that name; a new one needs its token.
   */
  async replace(hosts: PeerReplacement[]): Promise<void> {
    const seen = new Set<string>();
    for (const [i, h] of hosts.entries()) {
      if (seen.has(h.name)) throw badPeer(`hosts[${i}].name: "${h.name}" is given twice`);
      seen.add(h.name);
      if (this.configured.some((p) => p.name === h.name)) throw httpError(FleetErrors.FROM_CONFIG, `hosts[${i}]: machine "${h.name}" is declared in the config file (fleet.peers); leave it out`);
    }
    if (this.configured.length + hosts.length > MAX_PEERS) throw httpError(FleetErrors.TOO_MANY_PEERS, `${hosts.length} machines with the config file's ${this.configured.length} exceed ${MAX_PEERS}`);
    const box = await this.box();
    const held = new Map((await this.rows()).map((r) => [r.name, r]));
    const next = hosts.map((h, i) => {
      const url = normalisePeerUrl(h.url);
      if (h.token !== undefined) return { name: h.name, url, token: box.seal(h.token, h.name), hint: tokenHint(h.token), created_at: held.get(h.name)?.created_at ?? this.now() };
      const old = held.get(h.name);
      if (!old) throw badPeer(`hosts[${i}].token: "${h.name}" is a new machine; give its read token`);
      return { ...old, url };
    });
    await this.store.transaction(async (tx) => {
      await tx.run(`DELETE FROM ${this.table}`);
      if (next.length) await tx.insertMany(this.table, ['name', 'url', 'token', 'hint', 'created_at'], next.map((r) => [r.name, r.url, r.token, r.hint, Number(r.created_at)]));
    });
  }

  /** The dashboard's machines; one the config file has since declared under the same name is left out (the file wins). */
  private async rows(): Promise<Row[]> {
    const rows = await this.store.query<Row>(`SELECT name, url, token, hint, created_at FROM ${this.table} ORDER BY created_at, name`);
    return rows.filter((r) => !this.configured.some((p) => p.name === r.name));
  }
}

function fromConfig(peers: PeerSettings[]): Peer[] {
  return peers.map((p) => ({ name: p.name, url: normalisePeerUrl(p.url), token: p.token, source: 'config', hint: tokenHint(p.token) }));
}
