import { resolve } from 'node:path';
import type { ConfigDocument, ConfigFiles } from '@vigil/plugin-sdk';
import { ConfigError, formatConfigError, loadConfigFile, validateSection } from '../config/index.js';

/** The runtime's config loader as commands receive it (`CommandIo.config`): paths resolved and shown from `cwd`. */
export function configFiles(cwd: string, env: NodeJS.ProcessEnv): ConfigFiles {
  return {
    load(file): ConfigDocument {
      const loaded = loadConfigFile(resolve(cwd, file), env);
      return {
        file: loaded.file,
        data: loaded.data,
        validate: (keyPath, schema, value) => { validateSection(loaded, keyPath, schema, value); },
        locate: (keyPath) => loaded.locate(keyPath, 'key') ?? loaded.locate(keyPath),
      };
    },
    describe: (err) => (err instanceof ConfigError ? formatConfigError(err, { cwd }) : undefined),
  };
}
