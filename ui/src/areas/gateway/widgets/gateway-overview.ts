// Both gateway tiles read the last hour's overview, fetched once for both (the grid shares a path's polling). Its
// figures come from per-minute rollups, so every 30 s is as fresh as it gets without wasted queries.
import type { GatewayOverview } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';

export const OVERVIEW_PATH = '/api/gateway/overview?range=1h';
export const OVERVIEW_EVERY_MS = 30_000;

export const useGatewayHour = () => usePolled<GatewayOverview>(OVERVIEW_PATH, OVERVIEW_EVERY_MS);
