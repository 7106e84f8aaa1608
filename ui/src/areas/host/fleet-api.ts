// The fleet API as the Fleet page reads it: the generated server shapes (ui/src/data/api.gen.ts) under the names the
// page uses. No answer of these routes holds a peer's token; a read token appears once, in FleetReadTokenCreated.
import type { ApiBodies, FleetGrid, FleetMachine, FleetPeer, FleetReadToken, FleetReadTokenCreated, FleetReadTokenList } from '../../data/api.gen.js';

export type { FleetGrid, FleetMachine, FleetPeer, FleetReadToken, FleetReadTokenCreated, FleetReadTokenList };
export type PeerInput = ApiBodies['POST /api/fleet/peers'];

/** The snippet for the other machine's config: it serves its overview on the network, to read tokens only. */
export const PEER_SNIPPET = `# In the other machine's vigil.yaml, then restart it:
control_plane:
  listen: 0.0.0.0:9095
  allowed_hosts: [web-1.lan]   # the name or address this machine reaches it by
fleet: {}`;

/** A share, 0..100, as the grid shows it; a dash when unknown. */
export const percent = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : `${Math.round(n)}\u00a0%`);

/** The tone of a share: warning from 75, danger from 90 (perch's thresholds are 90 for CPU and 95 for memory). */
export const loadTone = (n: number | null | undefined): 'success' | 'warning' | 'danger' | 'neutral' =>
  n === null || n === undefined ? 'neutral' : n >= 90 ? 'danger' : n >= 75 ? 'warning' : 'success';
