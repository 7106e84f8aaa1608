import { definePlugin } from '@vigil/plugin-sdk';
import { detectors } from './detectors/index.js';
import { governExchange } from './govern.js';
import { testCommand } from './test-command.js';
import type { RedactionService } from './types.js';

/**
 * The redaction and governance engine, shared by capture (its worker module), the scan command and LLM
 * persistence. It has no config and does no work of its own: it provides the `redaction` service.
 */
export default definePlugin({
  name: 'redaction',
  version: '0.1.0',
  configSchema: { type: 'object', properties: {}, additionalProperties: false },
  provides: ['redaction'],
  commands: [testCommand],
  setup(ctx) {
    const service: RedactionService = {
      workerModule: new URL('./govern-worker.js', import.meta.url),
      detectors,
      govern: governExchange,
    };
    ctx.services.provide('redaction', service);
  },
});
