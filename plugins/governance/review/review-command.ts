// `vigil review --base BASE --head HEAD`: the pull-request review of a policy change, over the records stored by
// `vigil run -config FILE` or over a sample file. Exit 0 when the change weakens nothing, 1 when it does (or the
// store cannot be read), 2 for a usage error, an invalid policy or sample, or a revision git cannot read.
import type { CommandArgs, CommandIo, CommandStore } from '@vigil/plugin-sdk';
import { InputProblem } from '../policy-file.js';
import { DEFAULT_LIMIT, durationMs } from '../scan/scan-command.js';
import { storedRecords } from '../scan/scan-sources.js';
import { ReviewCollector } from './review-core.js';
import type { ReviewInput } from './review-input.js';
import { markdownReport } from './review-markdown.js';
import { jsonReport, textReport, type ReviewReport } from './review-report.js';
import { sampleInputs } from './review-sample.js';
import { loadReviewPolicy, type ReviewPolicy } from './policy-source.js';

export const REVIEW_USAGE = 'vigil review --base BASE --head HEAD (-config FILE [--since 7d] [--limit N] | --sample FILE) [--markdown | --format text|json]';

export async function runReview(args: CommandArgs, io: CommandIo): Promise<number> {
  const usage = (why: string) => { io.err(`vigil review: ${why}\n\nUsage: ${REVIEW_USAGE}\n`); return 2; };
  const { base, head, config, sample, since, limit, markdown } = args.flags;
  let format = args.flags.format ?? 'text';
  if (args.positionals.length) return usage(`unexpected argument "${args.positionals[0]}"`);
  if (typeof base !== 'string' || base === '') return usage('--base BASE is required (a policy file or REV:PATH)');
  if (typeof head !== 'string' || head === '') return usage('--head HEAD is required (a policy file or REV:PATH)');
  if ((config === undefined) === (sample === undefined)) return usage('give either -config FILE (stored records) or --sample FILE');
  if (config !== undefined && typeof config !== 'string') return usage('-config takes a FILE');
  if (sample !== undefined && typeof sample !== 'string') return usage('--sample takes a FILE');
  if (sample !== undefined && (since !== undefined || limit !== undefined)) return usage('--since and --limit are for stored records (-config)');
  if (markdown === true) {
    if (args.flags.format !== undefined && args.flags.format !== 'markdown') return usage('--markdown and --format are one choice; give one');
    format = 'markdown';
  }
  if (format !== 'text' && format !== 'json' && format !== 'markdown') return usage(`--format is text, json or markdown, got ${String(format)}`);
  const sinceMs = since === undefined ? null : typeof since === 'string' ? durationMs(since) : null;
  if (since !== undefined && sinceMs === null) return usage(`--since takes a duration such as 7d, 12h or 30m, got ${String(since)}`);
  const max = limit === undefined ? DEFAULT_LIMIT : Number(limit);
  if (!Number.isInteger(max) || max < 1) return usage(`--limit takes a positive whole number, got ${String(limit)}`);

  let before: ReviewPolicy;
  let after: ReviewPolicy;
  let samples: ReviewInput[] | null = null;
  try {
    before = await loadReviewPolicy(base, io);
    after = await loadReviewPolicy(head, io);
    if (typeof sample === 'string') samples = await sampleInputs(sample, io);
  } catch (err) {
    const problem = err instanceof InputProblem ? err.message : io.config.describe(err);
    if (problem === undefined) throw err;
    io.err(`${problem}\n`);
    return 2;
  }

  const collector = new ReviewCollector(before.policy, after.policy);
  if (samples) {
    for (const input of samples) collector.add(input);
  } else {
    let opened: CommandStore;
    try {
      opened = await io.openStore(config as string, 'capture');
    } catch (err) {
      const described = io.config.describe(err);
      if (described) { io.err(`${described}\n`); return 2; }
      io.err(`vigil review: ${(err as Error).message}\n`);
      return 1;
    }
    try {
      const from = sinceMs === null ? 0 : Date.now() - sinceMs;
      for await (const record of storedRecords(opened.store, from, max)) collector.add({ ...record, stored: true });
    } catch (err) {
      // A store that `vigil run` never wrote to has no records table yet: no traffic to review.
      if (!/no such table|does not exist/i.test((err as Error).message)) {
        io.err(`vigil review: cannot read the stored records of ${config as string}: ${(err as Error).message}\n`);
        return 1;
      }
    } finally {
      await opened.close();
    }
  }
  const result = collector.result();
  const report: ReviewReport = {
    verdict: result.weakening > 0 ? 'fail' : 'pass',
    base, head,
    traffic: { source: (sample ?? config) as string, kind: samples ? 'sample' : 'store' },
    ...result,
  };
  io.out(format === 'json' ? jsonReport(report) : format === 'markdown' ? markdownReport(report) : textReport(report));
  return report.verdict === 'fail' ? 1 : 0;
}
