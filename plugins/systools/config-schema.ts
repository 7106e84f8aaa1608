import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `systools:` section. `systools: {}` turns the pages on with the defaults. */
export interface SystoolsConfig {
  /** Whose ~/.ssh the SSH keys page reads and writes; default the home of the user Vigil runs as. */
  home?: string;
  /** Whose crontab the scheduled tasks page edits (`crontab -u`, needs root); default the user Vigil runs as. */
  crontab_user?: string;
  /** Where the host's root is (its run/systemd/system says whether systemd runs it); default `/`. */
  root: string;
}

export const systoolsConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'System tools for developers in the Host area: systemd services and timers, the user\'s crontab, SSH keys.',
  properties: {
    home: { type: 'string', minLength: 1, maxLength: 4096, description: 'The home folder whose .ssh is listed and where new keys go; default the home of the user Vigil runs as.' },
    crontab_user: { type: 'string', pattern: '^[a-z_][a-z0-9_.-]{0,31}$', description: 'Edit this user\'s crontab (`crontab -u`; Vigil must run as root); default the user Vigil runs as.' },
    root: { type: 'string', minLength: 1, maxLength: 4096, default: '/', description: 'The host\'s root, as in `probes.root`.' },
  },
};
