import type { CommandDefinition } from '@vigil/plugin-sdk';
import { DOCUMENT_FLAGS } from '../openapi/document-source.js';

/** `vigil sdk`, described here and loaded when it runs, so listing commands stays cheap. */
export const sdkCommand: CommandDefinition = {
  name: 'sdk',
  summary: 'Generate a typed client (TypeScript, Python or Go, standard library only) from an OpenAPI document',
  usage: 'vigil sdk (--spec FILE | -config FILE) --lang ts|python|go [--out DIR] [--name CLIENT_NAME] [--package NAME] [--format text|json]',
  flags: {
    ...DOCUMENT_FLAGS,
    lang: { type: 'string', summary: 'ts, python or go' },
    out: { type: 'string', summary: 'write the files into DIR (created); without it the client is printed' },
    name: { type: 'string', summary: 'the client class or struct name (default from the title; Go: Client)' },
    package: { type: 'string', summary: 'the TypeScript file name, Python module name or Go package name' },
    format: { type: 'string', summary: 'text (default) or json: the files written (with --out) or every file with its content' },
  },
  run: async (args, io) => (await import('./sdk-command.js')).runSdk(args, io),
};
