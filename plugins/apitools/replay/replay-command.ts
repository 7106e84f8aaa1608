// `vigil replay`: re-issues the requests `vigil run -config FILE` stored against a staging target, and reports per
// route what answered the same, what changed (status; with --diff shape the JSON shape of the body) and what was
// skipped because governance made it unreplayable. Safe by default: safe methods only, rate-limited, bounded
// concurrency, never the live upstream without --force, redirects never followed.
import { type CommandArgs, type CommandIo, type CommandStore } from '@vigil/plugin-sdk';
import { isMissingTable, storedRecordRows } from '../../../gateway/records/stored-records.js';
import { ApitoolsErrors } from '../errors.js';
import { compare } from './compare.js';
import { checkReplayTarget } from './live-upstream.js';
import { failureOf, parseReplayOptions, REPLAY_USAGE, type ReplayOptions } from './replay-options.js';
import { planReplay, type ReplayRequest, type StoredRecord } from './replay-plan.js';
import { jsonReport, markdownReport, ReplayTally, textReport, type ReplayReport } from './replay-report.js';
import { createSender } from './replay-send.js';
import { TokenBucket } from './token-bucket.js';

export async function runReplay(args: CommandArgs, io: CommandIo): Promise<number> {
  const usage = (why: string) => { io.err(`vigil replay: ${why}\n\nUsage: ${REPLAY_USAGE}\n`); return 2; };
  const options = parseReplayOptions(args);
  if (typeof options === 'string') return usage(options);

  let opened: CommandStore;
  try {
    opened = await io.openStore(options.config, 'capture');
  } catch (err) {
    const described = io.config.describe(err);
    if (described) { io.err(described); return 2; }
    io.err(`vigil replay: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    const service = io.config.load(opened.file).data.service as { upstream?: unknown; listen?: unknown } | undefined;
    const { live, connectTo } = await checkReplayTarget(options.target, service);
    if (live !== null && !options.force) {
      return usage(`${ApitoolsErrors.REPLAY_LIVE_TARGET}: --target ${options.target.origin} ${live}. `
        + 'Replay against a staging server, or pass --force to replay against it anyway');
    }
    const tally = await replayStored(opened, options, connectTo);
    const failure = failureOf(options, tally);
    const report: ReplayReport = {
      target: options.target.href, records: tally.records, replayed: tally.replayed, same: tally.same, changed: tally.changed,
      errors: tally.errors, shape_checked: tally.shapeChecked, skipped: tally.skipped, diff: options.diff,
      max_changed: options.maxChangedText, failed: failure !== null, failure, routes: tally.routes(),
    };
    io.out(options.format === 'json' ? jsonReport(report) : options.format === 'markdown' ? markdownReport(report) : textReport(report));
    return failure === null ? 0 : 1;
  } finally {
    await opened.close();
  }
}

/** Reads the records newest first and replays the replayable ones to `connectTo`, `concurrency` at a time, at most `rate`. */
async function replayStored(opened: CommandStore, options: ReplayOptions, connectTo: readonly string[]): Promise<ReplayTally> {
  const tally = new ReplayTally();
  const bucket = new TokenBucket(options.perSecond);
  const sender = createSender(options.target, options.timeoutMs, options.concurrency, connectTo);
  const rows = storedRecordRows(opened.store, options.since, options.limit);

  /** The next record to send, tallying the skipped ones on the way; null when the store has no more. */
  const next = async (): Promise<{ record: StoredRecord; request: ReplayRequest } | null> => {
    for (;;) {
      let step: IteratorResult<{ id: string; record: string }>;
      try {
        step = await rows.next();
      } catch (err) {
        // A store that `vigil run` never wrote to has no records table yet: nothing to replay.
        if (isMissingTable(err)) return null;
        throw err;
      }
      if (step.done) return null;
      const record = { ...(JSON.parse(step.value.record) as StoredRecord), id: step.value.id };
      const plan = planReplay(record, options.methods, options.headers);
      if ('request' in plan) return { record, request: plan.request };
      tally.skip(String(record.method ?? ''), String(record.path ?? '/'), plan.skip);
    }
  };

  // The generator serves one `next` at a time; the workers share it, so reading stays in order and memory flat.
  const worker = async () => {
    for (let item = await next(); item !== null; item = await next()) {
      await bucket.take();
      const sent = await sender.send(item.request);
      const { record, request } = item;
      tally.add(record.id, request.method, String(record.path ?? '/'), Number(record.status ?? 0), compare(record, sent, options.diff === 'shape', request.method));
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    sender.close();
  }
  return tally;
}
