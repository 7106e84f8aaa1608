import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import { HOUR, NO_RULE } from '../../../gateway/records/rule-paths.js';
import { readRuleUsage, type RuleUsageRows } from '../../../gateway/records/rule-usage-query.js';
import { ruleUsageSchema } from './schemas.js';

/** Routes listed per rule, busiest first; the rest are counted in `other_routes` and `other_requests`. */
export const ROUTES_PER_RULE = 20;
/** Ranges of the rule usage: whole hours, so the last hour is not offered (rule paths are counted per hour). */
export const RULE_USAGE_RANGES = { '24h': 24 * HOUR, '7d': 7 * 24 * HOUR } as const;

export interface RuleUsage {
  /** A rule name; the records that matched no rule are in `unmatched`. */
  rule: string;
  requests: number;
  /** `{ method, path, requests }`, busiest first: `path` as received, id-like segments written `{id}`. */
  routes: { method: string; path: string; requests: number }[];
  /** Distinct method and path shapes beyond `routes`, and their requests. */
  other_routes: number;
  other_requests: number;
}

function usageOf(rows: RuleUsageRows): RuleUsage {
  const routes = rows.busiest;
  const listed = routes.reduce((n, r) => n + r.requests, 0);
  return { rule: rows.rule, requests: rows.requests, routes, other_routes: rows.shapes - routes.length, other_requests: rows.requests - listed };
}

export function registerRuleUsageRoute(http: HttpRoutes, store: Store): void {
  http.route({
    method: 'GET', path: '/api/gateway/policy/usage', tags: ['gateway'],
    summary: 'What each policy rule matched: requests per rule, by method and path',
    response: ruleUsageSchema,
    description: 'Per rule name, the requests it matched in the range and its busiest routes (method and path as received, ' +
      `with id-like segments written {id}), at most ${ROUTES_PER_RULE} per rule; \`unmatched\` is the same for requests no rule matched. ` +
      'Counted per hour: the hour in which the range starts counts in full. A rule renamed counts under each name it had.',
    query: {
      type: 'object',
      properties: { range: { type: 'string', enum: Object.keys(RULE_USAGE_RANGES), default: '24h', description: 'One of 24h, 7d, ending now.' } },
    },
    async handler(ctx) {
      // The query schema admits the named ranges only.
      const name = String(ctx.query.range ?? '24h') as keyof typeof RULE_USAGE_RANGES;
      const span = RULE_USAGE_RANGES[name];
      const to = Date.now();
      const from = to - span;
      const usage = (await readRuleUsage(store, from, to, ROUTES_PER_RULE)).map(usageOf);
      const unmatched = usage.find((u) => u.rule === NO_RULE);
      return {
        range: name, from, to,
        rules: usage.filter((u) => u.rule !== NO_RULE).sort((a, b) => b.requests - a.requests || (a.rule < b.rule ? -1 : 1)),
        unmatched: unmatched ? { ...unmatched, rule: null } : { rule: null, requests: 0, routes: [], other_routes: 0, other_requests: 0 },
      };
    },
  });
}
