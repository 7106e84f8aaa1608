import { resolve } from 'node:path';
import type { CommandStore } from '@vigil/plugin-sdk';
import type { Composition } from '../composition.js';

/**
 * `CommandIo.openStore`: the store a config file names, opened as `vigil run` would open it, for one plugin. The file
 * goes through the same plan as `vigil run` (every section validated, `checkConfig` run), so a command never works
 * on a store the server would refuse to start with.
 */
export function commandStoreOpener(composition: Composition, cwd: string, env: NodeJS.ProcessEnv) {
  return async (file: string, plugin: string): Promise<CommandStore> => {
    const [{ planRuntime }, { openStore, configuredStoreUrl }] = await Promise.all([import('../plan.js'), import('../store/index.js')]);
    const plan = await planRuntime(resolve(cwd, file), { composition, env });
    const backend = await openStore(configuredStoreUrl(plan.core, cwd));
    return {
      store: backend.forPlugin(plugin),
      config: plan.entries.find((e) => e.def.name === plugin)?.config,
      file: resolve(cwd, file),
      close: () => backend.close(),
    };
  };
}
