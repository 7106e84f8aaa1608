import type { CommandDefinition } from '@vigil/plugin-sdk';

/** `vigil check`, described here and loaded when it runs, so listing commands stays cheap. */
export const checkCommand: CommandDefinition = {
  name: 'check',
  summary: 'Report whether live clients still use a field (a JSON path, query parameter or header) before it is removed',
  usage: "vigil check -config FILE ('METHOD /path' FIELD | --fields FILE) [--since 30d] [--format text|json]",
  flags: {
    config: { type: 'string', summary: 'the config of the `vigil run` whose observed fields to read' },
    fields: { type: 'string', summary: 'check every field a file lists (METHOD /path FIELD per line, or YAML/JSON)' },
    since: { type: 'string', summary: 'only use seen within the last DURATION (30d, 12h)' },
    format: { type: 'string', summary: 'text (default) or json' },
  },
  run: async (args, io) => (await import('./check-command.js')).runCheck(args, io),
};
