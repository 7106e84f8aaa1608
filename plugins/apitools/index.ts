import { definePlugin, type CommandDefinition } from '@vigil/plugin-sdk';

/**
 * The API toolchain: commands that read what `vigil run` learned about an API (its stored records and the fields
 * its routes use, `capture_fields`) and turn it into something a team uses: usage checks before a field is
 * removed, an OpenAPI document, typed clients, a stateful mock, and a replay against staging. It runs nothing
 * inside `vigil run`; each command opens the store itself, offline.
 */
const commands: CommandDefinition[] = [
  {
    name: 'sdk',
    summary: 'Generate a typed client (TypeScript, Python or Go, standard library only) from an OpenAPI document',
    usage: 'vigil sdk --spec FILE --lang ts|python|go [--out DIR] [--name CLIENT_NAME] [--package NAME] [--format text|json]',
    flags: {
      spec: { type: 'string', summary: 'the OpenAPI 3.0 or 3.1 document (YAML or JSON)' },
      lang: { type: 'string', summary: 'ts, python or go' },
      out: { type: 'string', summary: 'write the files into DIR (created); without it the client is printed' },
      name: { type: 'string', summary: 'the client class or struct name (default from the title; Go: Client)' },
      package: { type: 'string', summary: 'the TypeScript file name, Python module name or Go package name' },
      format: { type: 'string', summary: 'text (default) or json: the files written (with --out) or every file with its content' },
    },
    run: async (args, io) => (await import('./sdk/sdk-command.js')).runSdk(args, io),
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
