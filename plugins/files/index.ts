import { ConfigValueError, definePlugin, parseDuration } from '@vigil/plugin-sdk';
import { filesConfigSchema, type FilesConfig } from './config-schema.js';

function checkFilesConfig(config: FilesConfig): void {
  for (const key of ['budget', 'max_budget'] as const) {
    let ms: number;
    try { ms = parseDuration(config[key]); } catch (err) { throw new ConfigValueError([key], (err as Error).message); }
    if (ms < 1000) throw new ConfigValueError([key], `"${config[key]}" is under the minimum of 1s`);
  }
  if (parseDuration(config.budget) > parseDuration(config.max_budget)) throw new ConfigValueError(['budget'], 'is longer than max_budget');
}

/**
 * Host › Storage and Files: folder sizes streamed as they are counted, duplicates, big old files, a filename
 * search, previews, a text editor with an atomic save, and the freedesktop trash. Every scan runs in a worker
 * thread under a time budget and can be cancelled; every file path is resolved and checked against `roots`.
 * On when the config has a `files` section.
 */
export default definePlugin<FilesConfig>({
  name: 'files',
  version: '0.1.0',
  configSchema: filesConfigSchema,
  needs: ['http'],
  // The SMART check runs through the privileged helper when it is on; everything else works without it.
  optional: ['privilege'],
  checkConfig: checkFilesConfig,
  async setup(ctx, config) {
    const { startFiles } = await import('./start-files.js');
    return startFiles(ctx, config);
  },
});
