import { resolve } from 'node:path';
import type { ConfigDocument, ConfigFiles } from '@vigil/plugin-sdk';
import { ConfigError, formatConfigError, loadConfigFile, loadConfigText, validateSection, type LoadedConfig } from '../config/index.js';

/** The runtime's config loader as commands receive it (`CommandIo.config`): paths resolved and shown from `cwd`. */
export function configFiles(cwd: string, env: NodeJS.ProcessEnv): ConfigFiles {
  return {
    load: (file) => document(loadConfigFile(resolve(cwd, file), env)),
    loadText: (text, name) => document(loadConfigText(text, name, env)),
    describe: (err) => (err instanceof ConfigError ? formatConfigError(err, { cwd }) : undefined),
  };
}

function document(loaded: LoadedConfig): ConfigDocument {
  return {
    file: loaded.file,
    data: loaded.data,
    validate: (keyPath, schema, value) => { validateSection(loaded, keyPath, schema, value); },
    locate: (keyPath) => loaded.locate(keyPath, 'key') ?? loaded.locate(keyPath),
  };
}
