// `vigil scan`: sensitive-looking values that no rule masks, in the stored records of `-config FILE` or in a HAR file.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type CommandArgs, type CommandIo, type CommandStore } from '@vigil/plugin-sdk';
import { isMissingTable } from '../../../gateway/records/stored-records.js';
import { ScanCollector, type ScanInput } from './scan-core.js';
import { storedRecords, harEntries } from './scan-sources.js';
import { jsonReport, sarifReport, textReport, type ScanReport } from './scan-output.js';

export const SCAN_USAGE = 'vigil scan (-config FILE [--since 7d] [--limit N] | --har FILE) [--format text|json|sarif] [--fail-on-findings]';
/** Records read at most when `--limit` is not given (`vigil review` reads the same). */
export const DEFAULT_LIMIT = 1_000_000;
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `7d`, `12h`, `30m`, `45s`, `2w` in ms; null when not one of those. */
export function durationMs(text: string): number | null {
  const m = /^([0-9]+)([smhdw])$/.exec(text.trim());
  return m ? Number(m[1]) * UNITS[m[2]] : null;
}

export async function runScan(args: CommandArgs, io: CommandIo, version: string): Promise<number> {
  const usage = (why: string) => { io.err(`vigil scan: ${why}\n\nUsage: ${SCAN_USAGE}\n`); return 2; };
  const { config, har, since, limit, format = 'text' } = args.flags;
  if (args.positionals.length) return usage(`unexpected argument "${args.positionals[0]}"`);
  if ((config === undefined) === (har === undefined)) return usage('give either -config FILE (stored records) or --har FILE');
  if (config !== undefined && typeof config !== 'string') return usage('-config takes a FILE');
  if (har !== undefined && typeof har !== 'string') return usage('--har takes a FILE');
  if (format !== 'text' && format !== 'json' && format !== 'sarif') return usage(`--format is text, json or sarif, got ${String(format)}`);
  if (har !== undefined && (since !== undefined || limit !== undefined)) return usage('--since and --limit are for stored records (-config)');
  const sinceMs = since === undefined ? null : typeof since === 'string' ? durationMs(since) : null;
  if (since !== undefined && sinceMs === null) return usage(`--since takes a duration such as 7d, 12h or 30m, got ${String(since)}`);
  const max = limit === undefined ? DEFAULT_LIMIT : Number(limit);
  if (!Number.isInteger(max) || max < 1) return usage(`--limit takes a positive whole number, got ${String(limit)}`);

  const collector = new ScanCollector();
  let source: string;
  let artifact: string | undefined;
  if (typeof har === 'string') {
    const file = resolve(io.cwd, har);
    let inputs: ScanInput[];
    try {
      inputs = harEntries(await readFile(file, 'utf8'));
    } catch (err) {
      return usage(`cannot read ${har}: ${(err as Error).message}`);
    }
    for (const input of inputs) collector.add(input);
    source = har;
    artifact = har;
  } else {
    let opened: CommandStore;
    try {
      opened = await io.openStore(config as string, 'capture');
    } catch (err) {
      const described = io.config.describe(err);
      if (described) { io.err(described); return 2; }
      io.err(`vigil scan: ${(err as Error).message}\n`);
      return 1;
    }
    try {
      const from = sinceMs === null ? 0 : Date.now() - sinceMs;
      try {
        for await (const input of storedRecords(opened.store, from, max)) collector.add(input);
      } catch (err) {
        // A store that `vigil run` never wrote to has no records table yet: nothing to scan.
        if (!isMissingTable(err)) throw err;
      }
    } finally {
      await opened.close();
    }
    source = config as string;
    artifact = config as string;
  }
  const report: ScanReport = { source, records: collector.records, findings: collector.findings() };
  io.out(format === 'json' ? jsonReport(report) : format === 'sarif' ? sarifReport(report, version, artifact) : textReport(report));
  return args.flags['fail-on-findings'] === true && report.findings.length > 0 ? 1 : 0;
}
