import type { Composition } from '../runtime/composition.js';
import { fnCommand } from '../sandbox/js/fn-command.js';
import { loadBuiltins } from './builtins.js';
import { demoCommand } from './demo/demo-command.js';
import { verifyCommand } from './release/verify-command.js';

/**
 * Vigil as it ships: the runtime with the built-in plugins and the sandboxes. This is the one place that names them
 * all; the runtime receives them from here and imports none of them.
 */
export const vigil: Composition = {
  builtins: loadBuiltins,
  // `vigil demo` runs this very composition (with an upstream and traffic beside it), hence the late reference.
  commands: [fnCommand, demoCommand(() => vigil), verifyCommand],
  async jsSandbox(hooks) {
    const { createJsSandbox } = await import('../sandbox/js/index.js');
    return createJsSandbox({ onFailure: hooks.onFailure, onRestart: hooks.onRestart, onRetry: hooks.onRetry });
  },
};
