import { VigilError } from '@vigil/plugin-sdk';

export const PluginErrorCodes = {
  resolve: 'VIGIL_ERR_PLUGIN_RESOLVE',
  invalid: 'VIGIL_ERR_PLUGIN_INVALID',
  duplicate: 'VIGIL_ERR_PLUGIN_DUPLICATE',
  dependency: 'VIGIL_ERR_PLUGIN_DEPENDENCY',
  cycle: 'VIGIL_ERR_PLUGIN_CYCLE',
  setup: 'VIGIL_ERR_PLUGIN_SETUP',
  start: 'VIGIL_ERR_PLUGIN_START',
  reload: 'VIGIL_ERR_PLUGIN_RELOAD',
  undeclared: 'VIGIL_ERR_PLUGIN_UNDECLARED_SERVICE',
  serviceMissing: 'VIGIL_ERR_SERVICE_MISSING',
  serviceTaken: 'VIGIL_ERR_SERVICE_TAKEN',
} as const;

/** A plugin-related failure; `plugin` names the plugin so the operator knows where to look. */
export class PluginError extends VigilError {
  constructor(code: string, readonly plugin: string, message: string, cause?: unknown) {
    super(code, message, { cause });
    this.name = 'PluginError';
  }
}
