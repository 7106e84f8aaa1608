import { definePlugin, type CommandDefinition } from '@vigil/plugin-sdk';

/**
 * The API toolchain: commands that read what `vigil run` learned about an API (its stored records and the fields
 * its routes use, `capture_fields`) and turn it into something a team uses: usage checks before a field is
 * removed, an OpenAPI document, typed clients, a stateful mock, and a replay against staging. It runs nothing
 * inside `vigil run`; each command opens the store itself, offline.
 */
const commands: CommandDefinition[] = [
  {
    name: 'check',
    summary: 'Report whether live clients still use a field (a JSON path, query parameter or header) before it is removed',
    usage: "vigil check -config FILE ('METHOD /path' FIELD | --fields FILE) [--since 30d] [--format text|json]",
    flags: {
      config: { type: 'string', summary: 'the config of the `vigil run` whose observed fields to read' },
      fields: { type: 'string', summary: 'check every field a file lists (METHOD /path FIELD per line, or YAML/JSON)' },
      since: { type: 'string', summary: 'only use seen within the last DURATION (30d, 12h)' },
      format: { type: 'string', summary: 'text (default) or json' },
    },
    // Loaded when it runs, so listing commands stays cheap.
    run: async (args, io) => (await import('./check/check-command.js')).runCheck(args, io),
  },
];

export default definePlugin({
  name: 'apitools',
  version: '0.1.0',
  // No config section: the commands read the config file of the `vigil run` they follow (-config FILE).
  configKeys: [],
  commands,
  setup() {},
});
