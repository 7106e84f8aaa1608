/** The runtime's public entry point (`import { Runtime } from 'vigil'`), used by the SDK's test harness. */
export { Runtime, type StartOptions } from './runtime.js';
export { planRuntime, fullSchema, type RuntimePlan } from './plan.js';
export { main } from './cli/main.js';
export { VERSION } from './version.js';
