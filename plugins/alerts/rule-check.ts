import type { SourceRegistry } from './source-registry.js';
import type { AlertRule, RuleInput } from './types.js';

/** What each condition needs besides its type. */
function conditionProblem(c: RuleInput['condition']): string | undefined {
  const has = (k: string) => (c as unknown as Record<string, unknown>)[k] !== undefined;
  const allowed: Record<string, string[]> = { gt: ['threshold'], lt: ['threshold'], gte: ['threshold'], lte: ['threshold'], pct_change: ['direction', 'pct'], anomaly: ['z'], budget: ['pct'], prompt_version_change: [] };
  const needed: Record<string, string[]> = { gt: ['threshold'], lt: ['threshold'], gte: ['threshold'], lte: ['threshold'], pct_change: ['direction', 'pct'] };
  for (const k of needed[c.type] ?? []) if (!has(k)) return `condition.${k}: a ${c.type} condition needs it`;
  for (const k of Object.keys(c)) if (k !== 'type' && !allowed[c.type].includes(k)) return `condition.${k}: a ${c.type} condition does not take it`;
  return undefined;
}

/** Why a rule cannot work, as `key: problem`, or undefined. */
export function ruleProblem(rule: RuleInput | AlertRule, sources: SourceRegistry): string | undefined {
  const condition = conditionProblem(rule.condition);
  if (condition) return condition;
  if (rule.condition.type === 'prompt_version_change' && rule.source !== 'llm.prompt_versions') return 'source: prompt_version_change rules watch llm.prompt_versions';
  return sources.problem(rule);
}
