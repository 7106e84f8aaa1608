/**
 * The package's public entry (`import { Runtime } from 'vigil'`), used by the SDK's test harness: the runtime with
 * Vigil's built-in plugins and sandboxes.
 */
import { Runtime as CoreRuntime, type StartOptions } from '../runtime/runtime.js';
import { fullSchema as coreFullSchema, planRuntime as corePlanRuntime, type PlanOptions } from '../runtime/plan.js';
import { vigil } from './composition.js';

export { VERSION } from '../runtime/version.js';
export type { RuntimePlan } from '../runtime/plan.js';
export type { Runtime as RunningRuntime } from '../runtime/runtime.js';

type WithoutComposition<T> = Omit<T, 'composition'> & { composition?: PlanOptions['composition'] };

export const Runtime = {
  /** Loads, validates and starts `configFile` with Vigil's built-in plugins. */
  start: (configFile: string, options: WithoutComposition<StartOptions> = {}) => CoreRuntime.start(configFile, { composition: vigil, ...options }),
};

export const planRuntime = (file: string, options: WithoutComposition<PlanOptions> = {}) => corePlanRuntime(file, { composition: vigil, ...options });
export const fullSchema = () => coreFullSchema(vigil);
