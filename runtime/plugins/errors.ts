import { defineErrorCodes, VigilError, type ErrorCodeOf } from '@vigil/plugin-sdk';

/** Codes of the plugin host: finding, ordering, setting up, starting and reloading plugins, and their services. */
export const PluginErrors = defineErrorCodes('PLUGIN', {
  RESOLVE: {
    meaning: 'A plugin named in `plugins[].use` cannot be found (no such path, or no such package in node_modules) or ' +
      'throws while its module loads.',
    action: 'Check the path (relative to the config file) or install the package with npm install; for a load failure, the ' +
      'message carries the module\'s own error.',
  },
  INVALID: {
    meaning: 'A module named in `plugins[].use` loads but is not a Vigil plugin: its default export does not come from ' +
      'definePlugin().',
    action: 'Point `use` at the plugin\'s entry point; plugin authors: `export default definePlugin({ … })` from @vigil/plugin-sdk.',
  },
  DUPLICATE: {
    meaning: 'Two enabled plugins have the same name or provide the same service.',
    action: 'Enable only one of the two plugins the message names.',
  },
  DEPENDENCY: {
    meaning: 'A plugin needs a service that no enabled plugin provides.',
    action: 'Enable the plugin that provides it (add its section to the config, or list it in `plugins`).',
  },
  CYCLE: {
    meaning: 'Plugins need each other in a cycle, so none of them can start first; the message shows the cycle.',
    action: 'Plugin authors: break the cycle (make one of the needs `optional`, or move the shared part into one plugin).',
  },
  SETUP: {
    meaning: 'A plugin\'s setup() failed; the runtime does not start (exit 1).',
    action: 'Read the cause in the message (often a file or a value of the plugin\'s section); VIGIL_DEBUG=1 prints its stack.',
  },
  START: {
    meaning: 'A plugin\'s start() failed (a port in use, a server that cannot be reached); the runtime stops what it ' +
      'started and exits 1.',
    action: 'Fix the cause the message gives, then start again; VIGIL_DEBUG=1 prints its stack.',
  },
  RELOAD: {
    meaning: 'On SIGHUP, a running plugin refused its changed config section and kept its running one (other plugins\' ' +
      'changes still apply); it is logged, not fatal.',
    action: 'Fix the section as the message says and send SIGHUP again, or restart to apply it; ' +
      '`vigil_config_reloads_total{outcome="failed"}` counts these.',
  },
  UNDECLARED_SERVICE: {
    meaning: 'A plugin uses or provides a service (or ctx.store, ctx.http, …) without listing it in its `needs` or ' +
      '`provides`, so the runtime cannot order start-up around it.',
    action: 'Plugin authors: add the service to `needs` (or `optional`) or `provides` in definePlugin.',
  },
  SERVICE_MISSING: {
    meaning: 'A plugin looked up a service that is listed in its `needs` but was not provided: a core service this ' +
      'runtime lacks, or the providing plugin did not register it during setup.',
    action: 'Enable the plugin that provides it; plugin authors: call ctx.services.provide in setup for every service in ' +
      '`provides`.',
  },
  SERVICE_TAKEN: {
    meaning: 'A plugin provided a service that another plugin already provides.',
    action: 'Enable only one of the two plugins the message names.',
  },
});

/** A plugin-related failure; `plugin` names the plugin so the operator knows where to look. */
export class PluginError extends VigilError {
  constructor(code: ErrorCodeOf<typeof PluginErrors>, readonly plugin: string, message: string, cause?: unknown) {
    super(code, message, { cause });
    this.name = 'PluginError';
  }
}
