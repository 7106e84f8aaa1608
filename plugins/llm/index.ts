import { ConfigValueError, definePlugin, parseByteSize, type CommandDefinition } from '@vigil/plugin-sdk';
import { planProblem, settingsProblem } from './check-settings.js';
import { llmConfigSchema } from './config-schema.js';
import type { LlmConfig } from './types.js';

/** `vigil project …`, described here and loaded when it runs. */
const projectCommand: CommandDefinition = {
  name: 'project',
  summary: 'LLM projects: `project create NAME`, `list`, `rotate-key NAME [--grace 24h]`, `delete NAME` (each with -config FILE)',
  usage: 'vigil project create NAME -config FILE\n'
    + '       vigil project list -config FILE\n'
    + '       vigil project rotate-key NAME -config FILE [--grace DURATION]\n'
    + '       vigil project delete NAME -config FILE',
  flags: {
    config: { type: 'string', summary: 'the config file whose store holds the projects' },
    grace: { type: 'string', summary: 'rotate-key: how long the old key keeps working (default 0: it stops now)' },
    json: { type: 'boolean', summary: 'list: print JSON' },
  },
  run: async (args, io) => (await import('./project-command.js')).runProjectCommand(args, io),
};

/** `vigil gate`, the CI regression gate's client. */
const gateCommand: CommandDefinition = {
  name: 'gate',
  summary: 'CI regression gate: compare two prompt versions on a running Vigil; exit 0 pass, 1 fail, 3 too few samples',
  usage: 'vigil gate --url URL --template NAME [--key KEY] [--baseline N|previous | --baseline-label L] [--candidate N|latest | --candidate-label L] [thresholds] [--markdown] [--allow-insufficient]',
  flags: {
    url: { type: 'string', summary: 'the control plane, e.g. http://127.0.0.1:9095 (or VIGIL_URL)' },
    key: { type: 'string', summary: 'the project key (or VIGIL_PROJECT_KEY)' },
    template: { type: 'string', summary: 'the prompt template to gate' },
    baseline: { type: 'string', summary: 'a version number, or previous (default)' },
    candidate: { type: 'string', summary: 'a version number, or latest (default)' },
    'baseline-label': { type: 'string', summary: 'the version this label names is the baseline, e.g. production' },
    'candidate-label': { type: 'string', summary: 'the version this label names is the candidate, e.g. staging' },
    'min-score': { type: 'string', summary: 'lowest average eval score of the candidate (0..1)' },
    'max-score-drop': { type: 'string', summary: 'largest drop of the average eval score' },
    'max-p95-increase-pct': { type: 'string', summary: 'largest rise of p95 latency, in percent' },
    'max-error-rate': { type: 'string', summary: 'highest error rate of the candidate (0..1)' },
    'max-error-rate-increase': { type: 'string', summary: 'largest rise of the error rate (0..1, absolute)' },
    'max-cost-increase-pct': { type: 'string', summary: 'largest rise of the average cost per call, in percent' },
    'min-samples': { type: 'string', summary: 'calls each version needs (default 30)' },
    markdown: { type: 'boolean', summary: 'print a Markdown table for a pull-request comment' },
    'allow-insufficient': { type: 'boolean', summary: 'exit 0 instead of 3 when there are too few samples' },
  },
  run: async (args, io) => (await import('./gate-command.js')).runGateCommand(args, io),
};

/** Problems of the section the schema cannot see: one name or key twice, settings that cannot work. */
function checkLlmConfig(config: LlmConfig): void {
  const maxBody = parseByteSize(config.max_body_bytes);
  const plans = config.plans ?? {};
  for (const [name, plan] of Object.entries(plans)) {
    const problem = settingsProblem(plan, maxBody);
    if (problem) throw new ConfigValueError(['plans', name, ...problem.path], problem.message);
  }
  const defaults = settingsProblem(config.defaults ?? {}, maxBody) ?? planProblem(config.defaults ?? {}, plans);
  if (defaults) throw new ConfigValueError(['defaults', ...defaults.path], defaults.message);
  const names = new Map<string, number>();
  const keys = new Map<string, number>();
  for (const [i, p] of (config.projects ?? []).entries()) {
    if (names.has(p.name)) throw new ConfigValueError(['projects', i, 'name'], `project "${p.name}" is declared twice (also at projects[${names.get(p.name)}])`);
    names.set(p.name, i);
    if ((p.key === undefined) === (p.key_sha256 === undefined)) {
      throw new ConfigValueError(['projects', i], `project "${p.name}" needs exactly one of key (usually \${ENV}) and key_sha256`);
    }
    const key = p.key ?? p.key_sha256!;
    if (keys.has(key)) throw new ConfigValueError(['projects', i, p.key ? 'key' : 'key_sha256'], `project "${p.name}" has the same key as projects[${keys.get(key)}]`);
    keys.set(key, i);
    const problem = settingsProblem(p, maxBody) ?? planProblem(p, plans);
    if (problem) throw new ConfigValueError(['projects', i, ...problem.path], problem.message);
  }
}

/**
 * LLM observability: trace ingest (`POST /v1/traces`, stateless, answers 202 once the batch is in the durable
 * queue), the persist stage (prompt versions by content hash, redaction through the governance policy, idempotent
 * storage), the public REST API and the CI gate. Off unless the config has an `llm` section.
 */
export default definePlugin<LlmConfig>({
  name: 'llm',
  version: '0.1.0',
  configSchema: llmConfigSchema,
  needs: ['store', 'http', 'jobs', 'workers'],
  provides: ['llm'],
  commands: [projectCommand, gateCommand],
  checkConfig: checkLlmConfig,
  async setup(ctx, config) {
    const { startLlm } = await import('./start-llm.js');
    const running = await startLlm(ctx, config);
    return {
      start: () => running.start(),
      stop: () => running.stop(),
      reload: (next) => running.reload(next as LlmConfig),
    };
  },
});

