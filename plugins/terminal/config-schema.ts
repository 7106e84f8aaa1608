import type { JsonSchema } from '@vigil/plugin-sdk';

export const terminalConfigSchema: JsonSchema = {
  type: 'object',
  properties: {
    enabled: {
      type: 'boolean', default: false,
      description: 'Serve the web terminal. Off by default: it is a shell, as the user Vigil runs as, for anyone who holds the dashboard token or a session.',
    },
    idle_timeout: {
      type: ['string', 'integer'], default: '30m',
      description: 'A terminal with no keystroke and no output for this long is closed and its shell ended (30s, 15m, 2h, or ms); 0 never.',
    },
    max_sessions: { type: 'integer', minimum: 1, maximum: 64, default: 8, description: 'Terminals open at once; one more is refused.' },
    shell: { type: 'string', pattern: '^/', maxLength: 4096, description: 'The shell to run (an absolute path); default $SHELL, else /bin/bash, else /bin/sh. Started as a login shell (-l).' },
  },
};
