import { defineErrorCodes } from '@vigil/plugin-sdk';

/** Codes of the runtime's own assembly of services (runtime/*.ts); each layer under runtime/ has its own catalogue. */
export const RuntimeErrors = defineErrorCodes('RUNTIME', {
  SANDBOX_UNAVAILABLE: {
    meaning: 'A plugin asked for the JavaScript sandbox (ctx.sandbox.loadFunction), and this build of the runtime, composed ' +
      'from code without one, has none.',
    action: 'Run the `vigil` CLI, whose composition includes the sandbox, or pass a `jsSandbox` in the composition given ' +
      'to the runtime; otherwise disable the plugin that loads functions.',
  },
});
