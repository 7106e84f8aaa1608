// What the Policy page reads and sends: `/api/gateway/policy` (plugins/governance) and
// `/api/gateway/policy/usage` (plugins/capture), as types.
import type { GatewayRecord } from './gateway-api.js';

export type RestrictPart = 'request_body' | 'response_body' | 'headers';

/** One rule as the config file writes it (policies/README.md), with its place in the list. */
export interface PolicyRule {
  index: number;
  name: string;
  match: { path: string; methods?: string[] };
  restrict?: RestrictPart[];
  redact?: { headers?: string[]; query_params?: string[]; json_fields?: string[]; detect?: string[] };
  labels?: Record<string, string>;
  sample?: number;
  keep_errors?: boolean;
  meter?: { tokens?: string };
  wasm?: string;
  wasm_sha256?: string;
  /** Where the rule is written in the config file. */
  source?: { file: string; line: number; column: number };
}

/** `GET /api/gateway/policy` */
export interface Policy {
  config_file: string | null;
  /** Epoch ms at which the rules in force were loaded. */
  loaded_at: number;
  reloads: number;
  rules: PolicyRule[];
}

export interface RuleRoute {
  method: string;
  /** As received, id-like segments written `{id}`. */
  path: string;
  requests: number;
}

export interface RuleUsage {
  /** Null for the requests no rule matched. */
  rule: string | null;
  requests: number;
  routes: RuleRoute[];
  other_routes: number;
  other_requests: number;
}

/** `GET /api/gateway/policy/usage?range=24h` */
export interface PolicyUsage {
  range: '24h' | '7d';
  from: number;
  to: number;
  rules: RuleUsage[];
  unmatched: RuleUsage;
}

/** `POST /api/gateway/policy/try`'s body. */
export interface TryInput {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string;
  response?: { status?: number; headers?: Record<string, string | string[]>; body?: string };
}

/** Its answer: the record as it would be stored, and the decision behind it. */
export interface TryResult {
  stored: false;
  record: GatewayRecord & { partial?: boolean };
  matched_rules: string[];
  route: string[];
  restricted: Record<RestrictPart, string[]>;
  redacted: number;
  sampling: { rate: number; rule: string | null; keep_errors: boolean; kept: boolean };
  wasm_not_applied: { rule: string; module: string }[];
}
