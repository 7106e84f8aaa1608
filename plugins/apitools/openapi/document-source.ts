// Where `vigil sdk` and `vigil mock` take their OpenAPI document from: a file (`--spec FILE`), or the document that
// `vigil spec` infers from the store of a `vigil run` config (`-config FILE`), so a team can go from traffic to a
// client or a mock without writing the spec first.
import { resolve } from 'node:path';
import type { CommandArgs, CommandIo } from '@vigil/plugin-sdk';
import { inferFromConfig } from './field-source.js';
import { OpenApiFileError, readOpenApiFile, type OpenApiDocument } from './document.js';

export type DocumentSource =
  | { ok: true; document: OpenApiDocument; /** the file, or `inferred from FILE` */ name: string }
  | { ok: false; /** what to print, and the exit code */ message: string; exit: 1 | 2; /** a mistake in the flags */ usage?: true };

/** The flags every command that reads a document declares. */
export const DOCUMENT_FLAGS = {
  spec: { type: 'string', summary: 'the OpenAPI 3.0 or 3.1 document (YAML or JSON)' },
  config: { type: 'string', summary: 'or the document `vigil spec` infers from the traffic of `vigil run -config FILE`' },
} as const;

/**
 * The document named by `--spec FILE` or `-config FILE` (exactly one). A usage mistake or an unreadable document
 * is exit 2; a store with no observations yet is exit 1, with what to do.
 */
export async function documentFrom(args: CommandArgs, io: CommandIo): Promise<DocumentSource> {
  const { spec, config } = args.flags;
  if ((spec === undefined) === (config === undefined)) {
    return { ok: false, exit: 2, usage: true, message: 'give either --spec FILE (an OpenAPI 3.0 or 3.1 document) or -config FILE (the document inferred from its traffic)' };
  }
  if (spec !== undefined) {
    if (typeof spec !== 'string' || !spec) return { ok: false, exit: 2, usage: true, message: '--spec takes a FILE' };
    try {
      return { ok: true, document: await readOpenApiFile(resolve(io.cwd, spec)), name: spec };
    } catch (err) {
      if (err instanceof OpenApiFileError) return { ok: false, exit: 2, message: err.message };
      throw err;
    }
  }
  if (typeof config !== 'string' || !config) return { ok: false, exit: 2, usage: true, message: '-config takes a FILE' };
  try {
    return { ok: true, document: (await inferFromConfig(io, config)).document, name: `inferred from ${config}` };
  } catch (err) {
    const described = io.config.describe(err);
    if (described) return { ok: false, exit: 2, message: described.trimEnd() };
    return { ok: false, exit: 1, message: (err as Error).message };
  }
}
