import { definePlugin, type CommandDefinition } from '@vigil/plugin-sdk';
import { policyCommand } from './policy-command.js';
import type { RedactionService } from './types.js';

/** `vigil test`, described here and loaded when it runs, so listing commands stays cheap. */
const testCommand: CommandDefinition = {
  name: 'test',
  summary: 'Check offline, with no server and no network, that a policy redacts what its cases say it should',
  usage: 'vigil test -config policy.yaml CASES.yaml [MORE_CASES.yaml …]',
  flags: { config: { type: 'string', summary: 'the policy file (service + rules)' } },
  run: async (args, io) => (await import('./test-command.js')).testCommand.run(args, io),
};

/**
 * The governance engine (redaction, labels, sampling, metering, WASM narrowing), shared by capture (its worker module), the scan command and LLM
 * persistence. It has no config and does no work of its own: it provides the `redaction` service.
 */
export default definePlugin({
  name: 'governance',
  version: '0.1.0',
  configSchema: { type: 'object', properties: {}, additionalProperties: false },
  provides: ['redaction'],
  commands: [testCommand, policyCommand],
  async setup(ctx) {
    const [{ detectors }, { governExchange }] = await Promise.all([import('./detectors/index.js'), import('./govern.js')]);
    const service: RedactionService = {
      workerModule: new URL('./govern-worker.js', import.meta.url),
      detectors,
      govern: governExchange,
    };
    ctx.services.provide('redaction', service);
  },
});
