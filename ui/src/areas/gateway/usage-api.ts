// What the usage page reads from capture (plugins/capture/README.md), as types.
import type { RangeName } from '../../components/range-picker.js';

/** What ranks tenants and what the chart and the share column show. */
export const MEASURES = ['requests', 'tokens', 'cost'] as const;
export type Measure = (typeof MEASURES)[number];

export interface TenantUsage {
  /** `""` for exchanges that carried no tenant label. */
  tenant: string;
  requests: number;
  tokens: number;
  /** In `currency`, from `capture.pricing`. */
  cost: number;
}

/** `GET /api/gateway/usage?range=&limit=`: tenants busiest first. */
export interface UsageList {
  range: RangeName;
  from: number;
  to: number;
  tenant_label: string;
  currency: string;
  data: TenantUsage[];
  limit: number;
  offset: number;
}

/** One value per step of `UsageSeries.times`. */
export interface UsagePoints {
  requests: number[];
  tokens: number[];
  cost: number[];
}

/** `GET /api/gateway/usage/series?range=&by=&top=` */
export interface UsageSeries {
  range: RangeName;
  from: number;
  to: number;
  step_ms: number;
  by: Measure;
  tenant_label: string;
  currency: string;
  pricing: { per_1k_tokens: number; per_request: number };
  totals: { requests: number; tokens: number; cost: number; tenants: number };
  times: number[];
  series: (TenantUsage & { points: UsagePoints })[];
  /** Every tenant without a series of its own, summed. */
  other: { tenants: number; requests: number; tokens: number; cost: number; points: UsagePoints };
}
