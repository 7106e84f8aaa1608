import { definePlugin, type CommandDefinition } from '@vigil/plugin-sdk';

/**
 * The API toolchain: commands that read what `vigil run` learned about an API (its stored records and the fields
 * its routes use, `capture_fields`) and turn it into something a team uses: usage checks before a field is
 * removed, an OpenAPI document, typed clients, a stateful mock, and a replay against staging. It runs nothing
 * inside `vigil run`; each command opens the store itself, offline.
 */
const commands: CommandDefinition[] = [
  {
    name: 'spec',
    summary: 'Infer an OpenAPI 3.1 document from the traffic `vigil run` saw, or merge it into a hand-written one',
    usage: 'vigil spec -config FILE [--since 30d] [--merge existing.yaml] [--format yaml|json] [--out FILE] [--min-presence 0.95]',
    flags: {
      config: { type: 'string', summary: 'the config of the `vigil run` whose store holds the observations' },
      since: { type: 'string', summary: 'only fields seen in the last DURATION (30d, 12h)' },
      merge: { type: 'string', summary: 'add what the traffic shows to this OpenAPI file, keeping everything written by hand' },
      format: { type: 'string', summary: 'yaml (default) or json' },
      out: { type: 'string', summary: 'write the document to FILE and print a summary instead' },
      'min-presence': { type: 'string', summary: 'presence ratio that makes a key or parameter required (default 0.95)' },
    },
    // Loaded when it runs, so listing commands stays cheap.
    run: async (args, io) => (await import('./spec/spec-command.js')).runSpec(args, io),
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
