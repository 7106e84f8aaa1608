// What the gateway's pages read: `/api/gateway/*` (plugins/capture, plugins/proxy), by the names the pages use; the
// shapes are generated from the routes' schemas (ui/src/data/api.gen.ts).
import type { GatewayOverview, GovernedRecord, GovernedRecordPage, ProxyStatus } from '../../data/api.gen.js';

/** `GET /api/gateway/overview?range=` */
export type Overview = GatewayOverview;
/** `GET /api/gateway/proxy`: where the gateway listens, and what it forwards to. */
export type { ProxyStatus };
/** A stored record as `/api/gateway/records` lists it (plugins/capture/README.md). */
export type GatewayRecord = GovernedRecord;
export type RecordPage = GovernedRecordPage;

/** A URL for a `curl` through the gateway: a proxy listening on every interface is reached on this host's name. */
export function reachableUrl(url: string, hostname: string): string {
  // location.hostname already brackets an IPv6 address; a bare one gets them.
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, `http://${host}`);
}
