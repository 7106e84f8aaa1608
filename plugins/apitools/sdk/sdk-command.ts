// `vigil sdk (--spec FILE | -config FILE) --lang ts|python|go`: a typed client of an OpenAPI 3.0/3.1 document (or of
// the one inferred from a store's traffic), written to --out DIR or printed.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CommandArgs, CommandIo } from '@vigil/plugin-sdk';
import { documentFrom } from '../openapi/document-source.js';
import { SDK_LANGUAGES, SdkOptionError, generateSdk, type GeneratedSdk, type SdkLanguage } from './generate.js';

export const SDK_USAGE = 'vigil sdk (--spec FILE | -config FILE) --lang ts|python|go [--out DIR] [--name CLIENT_NAME] [--package NAME] [--format text|json]';

export async function runSdk(args: CommandArgs, io: CommandIo): Promise<number> {
  const usage = (why: string) => { io.err(`vigil sdk: ${why}\n\nUsage: ${SDK_USAGE}\n`); return 2; };
  const { lang, out, name, package: pkg, format = 'text' } = args.flags;
  if (args.positionals.length) return usage(`unexpected argument "${args.positionals[0]}"`);
  if (typeof lang !== 'string' || !(SDK_LANGUAGES as readonly string[]).includes(lang)) {
    return usage(`--lang is one of ${SDK_LANGUAGES.join(', ')}${lang === undefined ? '' : `, got ${String(lang)}`}`);
  }
  if (out !== undefined && (typeof out !== 'string' || !out)) return usage('--out takes a DIR');
  if (name !== undefined && typeof name !== 'string') return usage('--name takes a CLIENT_NAME');
  if (pkg !== undefined && typeof pkg !== 'string') return usage('--package takes a NAME');
  if (format !== 'text' && format !== 'json') return usage(`--format is text or json, got ${String(format)}`);

  const source = await documentFrom(args, io);
  if (!source.ok) {
    if (source.usage) return usage(source.message);
    io.err(`vigil sdk: ${source.message}\n`);
    return source.exit;
  }
  const doc = source.document;
  let sdk: GeneratedSdk;
  try {
    sdk = generateSdk(doc, lang as SdkLanguage, { clientName: name as string | undefined, packageName: pkg as string | undefined });
  } catch (err) {
    if (err instanceof SdkOptionError) return usage(err.message);
    throw err;
  }
  for (const s of sdk.skipped) io.err(`vigil sdk: left out ${s.method} ${s.path}: ${s.why}\n`);
  if (sdk.operations === 0) {
    io.err(`vigil sdk: ${source.name} has no operation to generate a client for (paths: ${Object.keys(doc.paths).length})\n`);
    return 1;
  }

  if (typeof out !== 'string' && format === 'json') {
    // Every file, contents included, for a job that writes them itself.
    io.out(`${JSON.stringify({ lang, files: sdk.files, operations: sdk.operations, types: sdk.types, skipped: sdk.skipped }, null, 2)}\n`);
    return 0;
  }
  if (typeof out !== 'string') {
    // One file on stdout: the client itself (Go's go.mod is only written with --out).
    io.out(sdk.files[0].content);
    if (sdk.files.length > 1) io.err(`vigil sdk: printed ${sdk.files[0].path}; --out DIR also writes ${sdk.files.slice(1).map((f) => f.path).join(', ')}\n`);
    return 0;
  }
  const dir = resolve(io.cwd, out);
  const written: { path: string; bytes: number }[] = [];
  try {
    await mkdir(dir, { recursive: true });
    for (const file of sdk.files) {
      const path = join(dir, file.path);
      await writeFile(path, file.content);
      written.push({ path, bytes: Buffer.byteLength(file.content) });
    }
  } catch (err) {
    io.err(`vigil sdk: cannot write to --out ${out}: ${(err as Error).message}\n`);
    return 2;
  }
  if (format === 'json') {
    io.out(`${JSON.stringify({ lang, files: written, operations: sdk.operations, types: sdk.types, skipped: sdk.skipped }, null, 2)}\n`);
  } else {
    for (const w of written) io.out(`wrote ${w.path} (${w.bytes} bytes)\n`);
    io.out(`${sdk.operations} operations, ${sdk.types} types, ${lang}\n`);
  }
  return 0;
}
