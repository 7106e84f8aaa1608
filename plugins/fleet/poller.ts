import { pollPeer, type PollOptions, type PollResult } from './peer-poll.js';
import type { PeerStore } from './peer-store.js';
import type { StatusStore } from './status-store.js';
import type { Peer } from './types.js';

export interface PollerDeps {
  peers: PeerStore;
  statuses: StatusStore;
  options: () => PollOptions;
  /** Counts each poll by outcome (`up`, `down`). */
  counted(outcome: 'up' | 'down'): void;
  now?: () => number;
}

/**
 * A machine that refused its token is asked again this rarely: each refusal counts towards the peer's lockout (20
 * in 10 minutes by default), which would shut this whole address out of it, dashboard included. A new token for
 * the machine is tried at once (pollOne).
 */
export const REFUSED_RETRY_MS = 5 * 60_000;
export const REFUSED_PREFIX = '401:';

/**
 * One round: every machine polled at once (at most 24, each under the poll's deadline, so a round lasts one timeout
 * at most), each result recorded. Read-only towards the peers: one GET of the overview each, nothing else.
 */
export async function pollRound(deps: PollerDeps): Promise<void> {
  const now = deps.now ?? Date.now;
  const [peers, last] = await Promise.all([deps.peers.all(), deps.statuses.all()]);
  const due = peers.filter((peer) => {
    const s = last.get(peer.name);
    return !(s && !s.up && s.url === peer.url && s.error?.startsWith(REFUSED_PREFIX) && now() - s.polled_at < REFUSED_RETRY_MS);
  });
  await Promise.all(due.map((peer) => pollOne(deps, peer)));
  await deps.statuses.keepOnly(peers.map((p) => p.name));
}

/** Polls one machine and records the result: for a machine just added, so the grid need not wait a whole interval. */
export async function pollOne(deps: PollerDeps, peer: Peer): Promise<void> {
  const now = deps.now ?? Date.now;
  const result: PollResult = peer.unusable ? { up: false, error: peer.unusable, latency_ms: 0 } : await pollPeer(peer, deps.options());
  deps.counted(result.up ? 'up' : 'down');
  await deps.statuses.record(peer.name, peer.url, result, now());
}
