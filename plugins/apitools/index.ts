import { definePlugin, type CommandDefinition } from '@vigil/plugin-sdk';
import { REPLAY_USAGE } from './replay/replay-options.js';

/**
 * The API toolchain: commands that read what `vigil run` learned about an API (its stored records and the fields
 * its routes use, `capture_fields`) and turn it into something a team uses: usage checks before a field is
 * removed, an OpenAPI document, typed clients, a stateful mock, and a replay against staging. It runs nothing
 * inside `vigil run`; each command opens the store itself, offline.
 */
const replayCommand: CommandDefinition = {
  name: 'replay',
  summary: 'Re-issue captured requests against a staging target and diff the status codes (and JSON shapes) per route',
  usage: REPLAY_USAGE,
  flags: {
    config: { type: 'string', summary: 'replay the records stored by `vigil run -config FILE`' },
    target: { type: 'string', summary: 'the base URL to replay against (never the live upstream, unless --force)' },
    since: { type: 'string', summary: 'only records from the last DURATION (1d, 12h, 30m)' },
    limit: { type: 'string', summary: 'at most N records, newest first (default 1000)' },
    methods: { type: 'string', summary: 'methods to replay (default GET,HEAD,OPTIONS); others are skipped as unsafe_method' },
    rate: { type: 'string', summary: 'most requests per second (20/s), minute (600/m) or hour (default 10/s)' },
    concurrency: { type: 'string', summary: 'most requests in flight at once (default 4)' },
    diff: { type: 'string', summary: 'status (default), or shape: also the JSON shape of each response body' },
    'max-changed': { type: 'string', summary: 'changes allowed before exit 1: a count (0 by default) or a percentage (5%)' },
    timeout: { type: 'string', summary: 'deadline of each request (default 10s); past it the request is an error' },
    header: { type: 'string', repeatable: true, summary: "'Name: value' set on every request, replacing the stored one ('Name:' removes it)" },
    format: { type: 'string', summary: 'text (default), json or markdown' },
    force: { type: 'boolean', summary: 'replay even when the target is the live upstream (or the gateway itself)' },
  },
  run: async (args, io) => (await import('./replay/replay-command.js')).runReplay(args, io),
};

const specCommand: CommandDefinition = {
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
};

const commands: CommandDefinition[] = [
  replayCommand,
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
  specCommand,
];

export default definePlugin({
  name: 'apitools',
  version: '0.1.0',
  // No config section: the commands read the config file of the `vigil run` they follow (-config FILE).
  configKeys: [],
  commands,
  setup() {},
});
