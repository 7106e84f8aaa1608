import { definePlugin, type CommandDefinition } from '@vigil/plugin-sdk';
import { checkRules } from '../../gateway/govern/check-rules.js';
import type { PolicyService } from '../../gateway/govern/policy-service.js';
import { rulesSchema, type RuleConfig } from '../../policies/schema.js';
import { policyCommand } from './policy-command.js';
import type { LoadedPolicy } from './policy-routes.js';
import type { TryTask } from './try-worker.js';
import { wasmFiles } from '../../gateway/govern/wasm-modules.js';

/** The plugin's version: in its definition and in the tool name of `vigil scan`'s SARIF. */
const VERSION = '0.1.0';

/** `vigil test`, described here and loaded when it runs, so listing commands stays cheap. */
const testCommand: CommandDefinition = {
  name: 'test',
  summary: 'Check offline, with no server and no network, that a policy redacts what its cases say it should',
  usage: 'vigil test -config policy.yaml CASES.yaml [MORE_CASES.yaml …]',
  flags: { config: { type: 'string', summary: 'the policy file (service + rules)' } },
  run: async (args, io) => (await import('./test-command.js')).testCommand.run(args, io),
};

/** `vigil scan`, described here and loaded when it runs. */
const scanCommand: CommandDefinition = {
  name: 'scan',
  summary: 'Find sensitive-looking values that no rule masks, in stored records or a HAR file, with the rule to add',
  usage: 'vigil scan (-config FILE [--since 7d] [--limit N] | --har FILE) [--format text|json|sarif] [--fail-on-findings]',
  flags: {
    config: { type: 'string', summary: 'scan the records stored by `vigil run -config FILE`' },
    har: { type: 'string', summary: 'scan a HAR 1.2 file instead' },
    since: { type: 'string', summary: 'only records from the last DURATION (7d, 12h, 30m)' },
    limit: { type: 'string', summary: 'at most N records, newest first (default 1000000)' },
    format: { type: 'string', summary: 'text (default), json or sarif' },
    'fail-on-findings': { type: 'boolean', summary: 'exit 1 when anything is found (for CI)' },
  },
  run: async (args, io) => (await import('./scan/scan-command.js')).runScan(args, io, VERSION),
};

/** `vigil review`, described here and loaded when it runs. */
const reviewCommand: CommandDefinition = {
  name: 'review',
  summary: 'Review a policy change: what the base and head policies would store differently, per route, over stored or sample traffic',
  usage: 'vigil review --base BASE --head HEAD (-config FILE [--since 7d] [--limit N] | --sample FILE) [--markdown | --format text|json]',
  flags: {
    base: { type: 'string', summary: 'the policy before the change: a file, or REV:PATH read with git show (origin/main:vigil.yaml)' },
    head: { type: 'string', summary: 'the policy after the change: a file, or REV:PATH' },
    config: { type: 'string', summary: 'review over the records stored by `vigil run -config FILE`' },
    sample: { type: 'string', summary: 'review over a sample file instead: HAR 1.2, or requests in the vigil test case format' },
    since: { type: 'string', summary: 'only records from the last DURATION (7d, 12h, 30m)' },
    limit: { type: 'string', summary: 'at most N records, newest first (default 1000000)' },
    markdown: { type: 'boolean', summary: 'print the pull-request comment (Markdown)' },
    format: { type: 'string', summary: 'text (default), json or markdown' },
  },
  run: async (args, io) => (await import('./review/review-command.js')).runReview(args, io),
};

/**
 * The governance engine and the one owner of the gateway's `rules`: it compiles them once per thread and provides
 * the `policy` service (decisions for the proxy, rules for capture's workers, reloads, and `governJson` for the LLM
 * platform). Redaction, labels, sampling, metering and WASM narrowing happen in its worker module.
 */
/** Tries the try worker holds at once, the one it runs and those waiting: more get a 503. */
const MAX_TRIES = 3;

export default definePlugin<RuleConfig[]>({
  name: 'governance',
  version: VERSION,
  configKeys: ['rules'],
  configSchema: rulesSchema,
  // The control plane serves the rules in force and "try a request" (policy-routes.ts).
  needs: ['http', 'workers'],
  provides: ['policy'],
  commands: [testCommand, policyCommand, scanCommand, reviewCommand],
  /** Compiling finds what the schema cannot (bad globs, duplicate names, reserved labels); WASM modules must load. */
  checkConfig: (rules, check) => checkRules(rules, check?.resolvePath ?? ((p) => p)),
  /** A rule's WASM module rebuilt in place applies on a reload, like a changed rule. */
  configFiles: (rules, check) => wasmFiles(rules, check.resolvePath),
  async setup(ctx, rules) {
    const [{ gatewayPolicy, PolicyVersions }, { governJson }, { detectors }, { registerPolicyRoutes }] = await Promise.all([
      import('../../gateway/govern/policy-versions.js'), import('../../policies/govern-json.js'), import('../../policies/detectors/index.js'),
      import('./policy-routes.js'),
    ]);
    const versions = new PolicyVersions(gatewayPolicy(rules, ctx.resolvePath));
    let loaded: LoadedPolicy = { version: versions.current, rules, loadedAt: Date.now(), reloads: 0 };
    const service: PolicyService = {
      get current() { return versions.current; },
      subscribe: (subscriber) => versions.subscribe(subscriber),
      governJson,
      detectors,
    };
    ctx.services.provide('policy', service);
    // One thread, started on the first try and ended when idle: a try of a megabyte is seconds of CPU, which the
    // gateway's event loop never pays; the queue is short, so a burst of tries waits on a 503, not in memory.
    const tries = ctx.workers.pool<TryTask, string>({
      filename: new URL('./try-worker.js', import.meta.url), name: 'policy-try', minThreads: 0, maxThreads: 1, maxQueue: MAX_TRIES,
    });
    let inFlight = 0;
    const runTry = (task: TryTask): Promise<string> | undefined => {
      if (inFlight >= MAX_TRIES) return undefined;
      inFlight++;
      const answer = tries.run(task);
      void answer.finally(() => { inFlight--; }).catch(() => {});
      return answer;
    };
    registerPolicyRoutes(ctx.http, {
      current: () => loaded,
      configFile: ctx.runtime.configFile,
      // The section is the `rules` list: rule i is written at [i].
      locate: (index) => ctx.configLocation([index]),
      runTry,
    });
    return {
      /** The rules change live; a plugin that cannot follow a change (the proxy's metric dimensions) refuses it for all. */
      reload(next) {
        versions.replace(gatewayPolicy(next as RuleConfig[], ctx.resolvePath));
        loaded = { version: versions.current, rules: next as RuleConfig[], loadedAt: Date.now(), reloads: loaded.reloads + 1 };
      },
    };
  },
});
