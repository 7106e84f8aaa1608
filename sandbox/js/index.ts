export { createJsSandbox } from './sandbox.js';
export { fnCommand } from './fn-command.js';
export { JsSandboxError, JsSandboxErrors, failureCode } from './errors.js';
export { jsSandboxDefaults } from './options.js';
export type {
  JsSandbox, JsSandboxOptions, JsFunction, JsResult, JsFailure, JsFailureReason, JsProcessStats,
} from './types.js';
