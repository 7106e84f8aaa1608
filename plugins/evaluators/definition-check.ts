import { unknownPlaceholders } from './rubric-template.js';
import type { DefinitionInput, EvalSettings, EvalType } from './types.js';

/** The settings each type takes, and those it needs. */
export const TYPE_SETTINGS: Record<EvalType, { takes: (keyof EvalSettings)[]; needs: (keyof EvalSettings)[] }> = {
  llm_judge: { takes: ['provider', 'model', 'rubric', 'temperature'], needs: ['provider', 'rubric'] },
  semantic_similarity: { takes: ['golden'], needs: [] },
  custom_function: { takes: ['source'], needs: ['source'] },
};

export interface DefinitionProblem {
  /** Key path inside the definition. */
  path: (string | number)[];
  message: string;
  /** The provider is unknown (a code of its own). */
  provider?: boolean;
}

/**
 * What the schema cannot see in a definition: settings that belong to another type or are missing, a version range
 * without a template or upside down, rubric placeholders that nothing fills, a provider the config does not declare.
 * Null when it can work.
 */
export function definitionProblem(def: DefinitionInput, providers: ReadonlySet<string>): DefinitionProblem | null {
  const { takes, needs } = TYPE_SETTINGS[def.type];
  for (const key of Object.keys(def.settings) as (keyof EvalSettings)[]) {
    if (!takes.includes(key)) return { path: ['settings', key], message: `${def.type} definitions take no ${key} (they take ${takes.join(', ')})` };
  }
  for (const key of needs) {
    if (def.settings[key] === undefined) return { path: ['settings', key], message: `${def.type} definitions need settings.${key}` };
  }
  if (def.versions && (def.versions.min !== undefined || def.versions.max !== undefined)) {
    if (!def.template) return { path: ['versions'], message: 'a version range needs a template' };
    if (def.versions.min !== undefined && def.versions.max !== undefined && def.versions.min > def.versions.max) {
      return { path: ['versions'], message: `min (${def.versions.min}) is above max (${def.versions.max})` };
    }
  }
  if (def.settings.rubric !== undefined) {
    const unknown = unknownPlaceholders(def.settings.rubric);
    if (unknown.length) {
      return { path: ['settings', 'rubric'], message: `unknown placeholder {{${unknown[0]}}}: a rubric takes {{input}}, {{output}}, {{expected}} and {{metadata.path}}` };
    }
  }
  if (def.settings.provider !== undefined && !providers.has(def.settings.provider)) {
    const known = [...providers];
    return {
      path: ['settings', 'provider'], provider: true,
      message: `provider "${def.settings.provider}" is not declared in evaluators.providers${known.length ? ` (it declares ${known.join(', ')})` : ' (it declares none)'}`,
    };
  }
  return null;
}
