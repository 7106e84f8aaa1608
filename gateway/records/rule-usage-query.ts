// Reading the hourly rule paths (`capture_rule_paths`) back: what each rule matched in a range, by method and path
// shape (GET /api/gateway/policy/usage). Both queries read the range's hours through the primary key (bucket first).
import type { Store } from '@vigil/plugin-sdk';
import { HOUR } from './rule-paths.js';

type Count = number | string;

/** One rule's requests and its busiest method and path shapes; `rule` is NO_RULE for records that matched none. */
export interface RuleUsageRows {
  rule: string;
  requests: number;
  /** Distinct method and path shapes the rule matched. */
  shapes: number;
  /** At most `perRule`, busiest first (ties by method, path). */
  busiest: { method: string; path: string; requests: number }[];
}

/** Rule usage over [from, to); the hour in which `from` falls counts in full. Rules in no particular order. */
export async function readRuleUsage(store: Store, from: number, to: number, perRule: number): Promise<RuleUsageRows[]> {
  const range = [from - (from % HOUR), to];
  const totals = await store.query<{ rule: string; requests: Count; routes: Count }>(
    `SELECT rule, SUM(requests) AS requests, COUNT(DISTINCT method || ' ' || path) AS routes FROM capture_rule_paths
     WHERE bucket >= ? AND bucket < ? GROUP BY rule`, range);
  const busiest = await store.query<{ rule: string; method: string; path: string; requests: Count }>(
    `SELECT rule, method, path, requests FROM (
       SELECT rule, method, path, SUM(requests) AS requests,
              ROW_NUMBER() OVER (PARTITION BY rule ORDER BY SUM(requests) DESC, method, path) AS n
       FROM capture_rule_paths WHERE bucket >= ? AND bucket < ? GROUP BY rule, method, path) ranked
     WHERE n <= ${Number(perRule)} ORDER BY rule, n`, range);
  const byRule = new Map<string, RuleUsageRows['busiest']>();
  for (const row of busiest) {
    const path = { method: row.method, path: row.path, requests: Number(row.requests) };
    const list = byRule.get(row.rule);
    if (list) list.push(path);
    else byRule.set(row.rule, [path]);
  }
  return totals.map((t) => ({ rule: t.rule, requests: Number(t.requests), shapes: Number(t.routes), busiest: byRule.get(t.rule) ?? [] }));
}
