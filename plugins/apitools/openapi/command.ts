import type { CommandDefinition } from '@vigil/plugin-sdk';

/** `vigil spec`, described here and loaded when it runs, so listing commands stays cheap. */
export const specCommand: CommandDefinition = {
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
  run: async (args, io) => (await import('./spec-command.js')).runSpec(args, io),
};
