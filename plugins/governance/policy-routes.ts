// The policy on the control plane: the rules in force as the config file writes them (GET /api/gateway/policy), and
// "try a request" (POST /api/gateway/policy/try), which governs one request by the code path of `vigil test`.
import { httpError, type ConfigLocation, type HttpRoutes } from '@vigil/plugin-sdk';
import { compilePolicy, type CompiledPolicy } from '../../policies/compile.js';
import type { GatewayPolicy } from '../../gateway/govern/policy-service.js';
import type { RuleConfig } from '../../policies/schema.js';
import { GovernanceErrors } from '../../gateway/govern/errors.js';
import { policySchema, tryResultSchema } from './policy-schemas.js';
import { maskSources, maskSourcesAnswer, maskSourcesSchema, type MaskedField } from './mask-sources.js';
import { TRY_BODY_LIMIT, tryInputSchema, tryRequest, type TryInput } from './try-request.js';
import type { TryTask } from './try-worker.js';

/** The policy in force: its version, the rules as written, when it was loaded, and reloads applied since start. */
export interface LoadedPolicy {
  readonly version: GatewayPolicy;
  /** As the config file writes them (a `wasm` path relative to the file). */
  readonly rules: readonly RuleConfig[];
  /** Epoch ms. */
  readonly loadedAt: number;
  /** Versions taken on a reload (SIGHUP) since the runtime started. */
  readonly reloads: number;
}

export interface PolicyRoutesOptions {
  current(): LoadedPolicy;
  /** The config file the rules come from (absolute), or undefined for a runtime started from code. */
  configFile?: string;
  /** Where `rules[index]` is written in the config file, when it can be told. */
  locate?(index: number): ConfigLocation | undefined;
  /**
   * Runs a try off the event loop (try-worker.ts), answering its JSON text; undefined when the worker holds as many
   * tries as it takes. Without it tries run on the calling thread (a runtime without worker pools, tests).
   */
  runTry?(task: TryTask): Promise<string> | undefined;
}

/** Seconds a client waits before trying again when the try worker is full. */
const TRY_RETRY_AFTER_S = 5;

/** One rule as the policy API lists it: its place in the list, its config as written, and where it is written. */
export type ListedRule = RuleConfig & {
  index: number;
  /** SHA-256 of the module file as loaded, beside `wasm`. */
  wasm_sha256?: string;
  source?: ConfigLocation;
};

/** The module digests of a version, by absolute path (its worker JSON carries them). */
function digestsOf(version: GatewayPolicy): Record<string, string> {
  return (JSON.parse(version.workerJson) as { modules?: Record<string, string> }).modules ?? {};
}

export function registerPolicyRoutes(http: HttpRoutes, options: PolicyRoutesOptions): void {
  // Tries get a compiled copy of their own per version: their paths never enter the traffic lane's decision caches.
  const forTries = new WeakMap<GatewayPolicy, CompiledPolicy>();
  const tryPolicy = (version: GatewayPolicy): CompiledPolicy => {
    let compiled = forTries.get(version);
    if (!compiled) {
      compiled = compilePolicy({ rules: [...version.compiled.rules] }, { cacheSize: 256 });
      forTries.set(version, compiled);
    }
    return compiled;
  };

  http.route({
    method: 'GET', path: '/api/gateway/policy', tags: ['gateway'],
    summary: 'The gateway\'s rules in force, in order, as the config file writes them',
    description: 'Each rule with its `index`, its config as written (`match`, `restrict`, `redact`, `labels`, `sample`, ' +
      '`keep_errors`, `meter`, `wasm`), the SHA-256 of its WASM module as loaded, and where it is written (`source`: file and line). ' +
      '`loaded_at` and `reloads` say when the rules in force were taken.',
    response: policySchema,
    handler() {
      const loaded = options.current();
      const digests = loaded.version.compiled.rules.some((r) => r.wasm !== undefined) ? digestsOf(loaded.version) : {};
      const rules: ListedRule[] = loaded.rules.map((rule, index) => {
        const absolute = loaded.version.compiled.rules[index]?.wasm;
        const at = options.locate?.(index);
        return {
          index,
          ...rule,
          ...(absolute !== undefined && digests[absolute] ? { wasm_sha256: digests[absolute] } : {}),
          ...(at ? { source: at } : {}),
        };
      });
      return { config_file: options.configFile ?? null, loaded_at: loaded.loadedAt, reloads: loaded.reloads, rules };
    },
  });

  http.route({
    method: 'POST', path: '/api/gateway/policy/try', tags: ['gateway'],
    summary: 'What the gateway would store for one request, by the code path of `vigil test`; nothing is stored',
    description: 'Decides and governs the request (and the response, when given) with the rules in force, exactly as ' +
      '`vigil test` governs a case, and answers with the record as it would be stored (`[REDACTED]` where masked), the ' +
      'matched rules, what each part\'s restriction comes from, the sampling decision (a try is a roll of 0: bodies are ' +
      'kept whenever `sample` is above 0) and the WASM modules a try does not run. Nothing is stored, published or exported. ' +
      `Bodies above ${TRY_BODY_LIMIT} bytes get 413. Tries are governed in a worker thread, a few at a time (503 with Retry-After beyond).`,
    body: tryInputSchema,
    bodyLimit: TRY_BODY_LIMIT,
    response: tryResultSchema,
    async handler(ctx) {
      const loaded = options.current();
      const input = ctx.request.body as TryInput;
      if (!options.runTry) return tryRequest(input, tryPolicy(loaded.version), loaded.rules);
      const answer = options.runTry({ policy: loaded.version.workerJson, written: [...loaded.rules], input });
      if (!answer) {
        throw httpError(GovernanceErrors.TRY_BUSY, `the try worker holds as many tries as it takes; try again in ${TRY_RETRY_AFTER_S} s`,
          { headers: { 'Retry-After': String(TRY_RETRY_AFTER_S) } });
      }
      ctx.type = 'application/json';
      return Buffer.from(await answer);
    },
  });

  http.route({
    method: 'POST', path: '/api/gateway/policy/mask-sources', tags: ['gateway'],
    summary: 'Which rule masks each masked field of a record, by the rules in force',
    description: 'Takes a record\'s `matched_rules` and its masked places (a header or query parameter name, or a body ' +
      'field\'s path such as `$.card.number`; `span` when a detector masked part of a value) and answers, for each, the ' +
      'matched rules whose `redact` covers it and the setting that does. An empty `rules` means no rule in force covers ' +
      'it now: the rule changed after the record was captured, or the record came masked from a middleware.',
    body: maskSourcesSchema,
    response: maskSourcesAnswer,
    async handler(ctx) {
      const body = ctx.request.body as { matched_rules: string[]; fields: MaskedField[] };
      return { fields: maskSources(body.fields, body.matched_rules, options.current().rules) };
    },
  });
}
