import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `devtools:` section. `devtools: {}` launches projects under the home folder with the defaults. */
export interface DevtoolsConfig {
  /** Folders projects may be picked from (checked after symlinks are resolved); default: the home folder. */
  roots?: string[];
  /** How long one run may take before it is stopped (SIGTERM to its process group, SIGKILL after a grace). */
  run_timeout: string | number;
  /** Output a run keeps, in KiB: the newest; what was dropped is counted and said. */
  output_cap_kib: number;
  /** Runs at once; one more is refused until one ends. */
  max_running: number;
  /** Finished runs the history keeps (oldest deleted first). */
  history_keep: number;
}

export const devtoolsConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Developer tools in the Host area: the project launcher (package scripts and make targets as jobs) and GNOME tweaks through gsettings.',
  properties: {
    roots: {
      type: 'array', maxItems: 32, items: { type: 'string', minLength: 1, maxLength: 4096 },
      description: 'Folders projects may be picked from, relative to the config file; a folder is checked after its symlinks are resolved. Default: the home folder of the user Vigil runs as.',
    },
    run_timeout: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '1s', formatMaximum: '24h', default: '30m',
      description: 'How long a run may take; it is stopped then (SIGTERM to its whole process group, SIGKILL 5 s later).',
    },
    output_cap_kib: { type: 'integer', minimum: 16, maximum: 65536, default: 1024, description: 'Output a run keeps, in KiB (the newest lines); the run says how much was dropped before them.' },
    max_running: { type: 'integer', minimum: 1, maximum: 32, default: 4, description: 'Runs at once; another is refused (409) until one ends.' },
    history_keep: { type: 'integer', minimum: 1, maximum: 10000, default: 200, description: 'Finished runs kept in the history, newest first.' },
  },
};
