// What the Policy page reads and sends: `/api/gateway/policy` (plugins/governance) and `/api/gateway/policy/usage`
// (plugins/capture), by the names the page uses; the shapes are generated from the routes' schemas (api.gen.ts).
import type { ApiBodies, ListedRule, PolicyInForce, PolicyRuleUsage, RulePathUsage, RestrictedParts, RuleUsage, TryResult, UnmatchedUsage } from '../../data/api.gen.js';

export type RestrictPart = keyof RestrictedParts;

/** One rule as the config file writes it (policies/README.md), with its place in the list. */
export type PolicyRule = ListedRule;

/** `GET /api/gateway/policy` */
export type Policy = PolicyInForce;

/** A route a rule matched; id-like segments written `{id}`. */
export type RuleRoute = RulePathUsage;

/** What one rule matched (`RuleUsage`), or what no rule matched (`UnmatchedUsage`, rule null). */
export type { RuleUsage, UnmatchedUsage };

/** `GET /api/gateway/policy/usage?range=24h` */
export type PolicyUsage = PolicyRuleUsage;

/** `POST /api/gateway/policy/try`'s body; its answer is the record as it would be stored, and the decision behind it. */
export type TryInput = ApiBodies['POST /api/gateway/policy/try'];
export type { TryResult };
