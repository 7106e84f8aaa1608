// The gateway's names for the palette: the policy's rules, and the routes each matched over the last day (path
// shapes, ids written `{id}`). Each leads to the requests it filed.
import { getJson } from '../../data/api.js';
import type { NamedItem } from '../types.js';
import type { Policy, PolicyUsage } from './policy-api.js';

const requestsOf = (rule: string): string => `/gateway/requests?route=${encodeURIComponent(rule)}`;

export async function gatewayNames(signal: AbortSignal): Promise<NamedItem[]> {
  const [policy, usage] = await Promise.all([
    getJson<Policy>('/api/gateway/policy', { signal, what: 'the policy' }),
    getJson<PolicyUsage>('/api/gateway/policy/usage?range=24h', { signal, what: 'the routes in use' }).catch(() => null),
  ]);
  const out: NamedItem[] = policy.rules.map((r) => ({
    id: `rule:${r.name}`, title: r.name, detail: `Rule · ${r.match.methods?.join(',') ?? 'any method'} ${r.match.path}`,
    keywords: [r.match.path, 'rule', 'route'], path: requestsOf(r.name),
  }));
  for (const rule of usage?.rules ?? []) {
    if (rule.rule === null) continue;
    for (const route of rule.routes) {
      out.push({
        id: `route:${route.method} ${route.path}`, title: `${route.method} ${route.path}`, detail: `Route · rule ${rule.rule}`,
        keywords: [rule.rule, 'route'], path: requestsOf(rule.rule),
      });
    }
  }
  return out;
}
