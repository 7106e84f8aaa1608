// `vigil spec`: an OpenAPI 3.1 document inferred from the field observations `vigil run -config FILE` recorded,
// optionally merged into a hand-written one.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { tryParseDuration, type CommandArgs, type CommandIo } from '@vigil/plugin-sdk';
import { stringify as toYaml } from 'yaml';
import { OpenApiFileError, readOpenApiFile, type OpenApiDocument } from './document.js';
import { inferFromConfig } from './field-source.js';
import { DEFAULT_MIN_PRESENCE } from './infer-spec.js';
import { mergeSpec, type SpecChange } from './merge-spec.js';

export const SPEC_USAGE =
  'vigil spec -config FILE [--since 30d] [--merge existing.yaml] [--format yaml|json] [--out FILE] [--min-presence 0.95]';

/** What the command did, printed to stdout with --out (JSON with --format json), to stderr otherwise. */
export interface SpecSummary {
  paths: number;
  operations: number;
  exchanges: number;
  observations: number;
  merged_into?: string;
  changes?: SpecChange[];
  out?: string;
}

export async function runSpec(args: CommandArgs, io: CommandIo): Promise<number> {
  const usage = (why: string) => { io.err(`vigil spec: ${why}\n\nUsage: ${SPEC_USAGE}\n`); return 2; };
  const { config, since, merge, out, format = 'yaml' } = args.flags;
  const presence = args.flags['min-presence'];
  if (args.positionals.length) return usage(`unexpected argument "${args.positionals[0]}"`);
  if (typeof config !== 'string' || config === '') return usage('-config FILE is required (the config of the `vigil run` that saw the traffic)');
  if (format !== 'yaml' && format !== 'json') return usage(`--format is yaml or json, got ${String(format)}`);
  for (const [flag, value] of [['merge', merge], ['out', out], ['since', since], ['min-presence', presence]] as const) {
    if (value !== undefined && (typeof value !== 'string' || value === '')) return usage(`--${flag} takes a value`);
  }
  const sinceMs = since === undefined ? undefined : tryParseDuration(since);
  if (since !== undefined && (sinceMs === undefined || sinceMs <= 0)) return usage(`--since takes a duration such as 30d, 12h or 30m, got ${String(since)}`);
  const minPresence = presence === undefined ? DEFAULT_MIN_PRESENCE : Number(presence);
  if (!(minPresence > 0 && minPresence <= 1)) return usage(`--min-presence takes a ratio above 0 and at most 1, got ${String(presence)}`);

  let existing: OpenApiDocument | undefined;
  if (typeof merge === 'string') {
    try {
      existing = await readOpenApiFile(resolve(io.cwd, merge));
    } catch (err) {
      if (err instanceof OpenApiFileError) return usage(`--merge: ${err.message}`);
      throw err;
    }
  }

  let inferred: Awaited<ReturnType<typeof inferFromConfig>>;
  try {
    inferred = await inferFromConfig(io, config, { sinceMs, minPresence });
  } catch (err) {
    const described = io.config.describe(err);
    if (described) { io.err(described); return 2; }
    io.err(`vigil spec: ${(err as Error).message}\n`);
    return 1;
  }

  let document = inferred.document;
  const summary: SpecSummary = { paths: 0, operations: 0, exchanges: 0, observations: inferred.observations.length };
  if (existing !== undefined) {
    const merged = mergeSpec(existing, document);
    document = merged.document;
    summary.merged_into = merge as string;
    summary.changes = merged.changes;
  }
  summary.paths = Object.keys(inferred.document.paths).length;
  for (const item of Object.values(inferred.document.paths)) {
    for (const op of Object.values(item)) {
      if (typeof op === 'object' && op !== null && 'responses' in op) {
        summary.operations++;
        summary.exchanges += Number((op as { 'x-vigil-observed'?: { exchanges?: number } })['x-vigil-observed']?.exchanges ?? 0);
      }
    }
  }

  const text = format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : toYaml(document, { lineWidth: 0, aliasDuplicateObjects: false });
  if (typeof out === 'string') {
    const file = resolve(io.cwd, out);
    try {
      await writeFile(file, text);
    } catch (err) {
      io.err(`vigil spec: cannot write ${out}: ${(err as Error).message}\n`);
      return 1;
    }
    summary.out = out;
    io.out(format === 'json' ? `${JSON.stringify(summary, null, 2)}\n` : textSummary(summary));
  } else {
    io.out(text);
    io.err(textSummary(summary));
  }
  return 0;
}

function textSummary(s: SpecSummary): string {
  const lines = [`vigil spec: ${s.paths} paths, ${s.operations} operations from ${s.exchanges} exchanges (${s.observations} observations)${s.out ? `, written to ${s.out}` : ''}`];
  if (s.merged_into !== undefined) {
    const changes = s.changes ?? [];
    lines.push(`merged into ${s.merged_into}: ${changes.length === 0 ? 'nothing new' : `${changes.length} changes`}`);
    for (const c of changes) lines.push(`  ${c.kind === 'type_differs' ? '!' : '+'} ${c.kind.replace('_', ' ')} ${c.where}`);
  }
  return `${lines.join('\n')}\n`;
}
