import { ConfigValueError, definePlugin } from '@vigil/plugin-sdk';
import { evaluatorsConfigSchema } from './config-schema.js';
import { definitionProblem } from './definition-check.js';
import type { EvaluatorsConfig } from './types.js';

/** Problems of the section the schema cannot see: a definition declared twice, settings that cannot work, a key given twice. */
function checkEvaluatorsConfig(config: EvaluatorsConfig): void {
  for (const [name, p] of Object.entries(config.providers ?? {})) {
    if (p.api_key !== undefined && p.api_key_env !== undefined) throw new ConfigValueError(['providers', name], `provider "${name}" takes one of api_key and api_key_env, not both`);
  }
  if (config.embeddings?.api_key !== undefined && config.embeddings.api_key_env !== undefined) {
    throw new ConfigValueError(['embeddings'], 'embeddings takes one of api_key and api_key_env, not both');
  }
  const providers = new Set(Object.keys(config.providers ?? {}));
  const seen = new Map<string, number>();
  for (const [i, d] of (config.definitions ?? []).entries()) {
    const key = `${d.project}\u0000${d.id}`;
    if (seen.has(key)) throw new ConfigValueError(['definitions', i, 'id'], `definition "${d.id}" of project "${d.project}" is declared twice (also at definitions[${seen.get(key)}])`);
    seen.set(key, i);
    const problem = definitionProblem(d, providers);
    if (problem) throw new ConfigValueError(['definitions', i, ...problem.path], problem.message);
  }
}

/**
 * The eval stage of the LLM platform: llm_judge, semantic_similarity and custom_function definitions per project,
 * sampled per trace and rate-limited per project, run from a durable queue fed by the `llm` plugin's persisted
 * traces. Off unless the config has an `evaluators` section.
 */
export default definePlugin<EvaluatorsConfig>({
  name: 'evaluators',
  version: '0.1.0',
  configSchema: evaluatorsConfigSchema,
  needs: ['store', 'http', 'jobs', 'sandbox', 'llm'],
  checkConfig: checkEvaluatorsConfig,
  async setup(ctx, config) {
    const { startEvaluators } = await import('./start-evaluators.js');
    const running = await startEvaluators(ctx, config);
    return {
      start: () => running.start(),
      stop: () => running.stop(),
      reload: (next) => running.reload(next as EvaluatorsConfig),
    };
  },
});
