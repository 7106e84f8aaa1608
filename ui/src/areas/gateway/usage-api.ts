// What the usage page reads from capture (plugins/capture/README.md); the shapes are generated from the routes' schemas
// (ui/src/data/api.gen.ts).
import type { TenantUsage, UsageList, UsagePoints, UsageSeries } from '../../data/api.gen.js';

/** What ranks tenants and what the chart and the share column show. */
export const MEASURES = ['requests', 'tokens', 'cost'] as const;
export type Measure = (typeof MEASURES)[number];

export type { TenantUsage, UsageList, UsagePoints, UsageSeries };
