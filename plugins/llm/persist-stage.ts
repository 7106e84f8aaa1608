import type { Logger, PersistedTrace, QueuedJob, SqlValue, Store, Transaction } from '@vigil/plugin-sdk';
import type { JsonGovernance } from '../../policies/govern-json.js';
import type { EvalHooks } from './eval-hooks.js';
import type { PersistPayload, QueuedItem } from './ingest-pipeline.js';
import { awaitsMessages, publishUpdates } from './late-messages.js';
import { normaliseTemplate, templateHash } from './normalise-template.js';
import type { PendingMessages } from './pending-messages.js';
import type { PromptVersions } from './prompt-versions.js';
import { noNul, storedTrace, TRACE_COLUMNS, traceRow, type RedactedParts, type StoredTemplate } from './trace-record.js';
import type { LlmProject } from './types.js';

/** Rows per INSERT statement: 16 columns × 400 rows stays under both backends' parameter limits. */
const ROWS_PER_STATEMENT = 400;
/** From this attempt on, a batch whose insert fails is inserted row by row, so one bad row cannot hold the rest back. */
export const ISOLATE_FROM_ATTEMPT = 3;

export interface PersistDeps {
  store: Store;
  log: Logger;
  /** The project by id with its settings in force, or undefined once it was deleted. */
  project(id: string): Promise<LlmProject | undefined>;
  versions: PromptVersions;
  /** The governance service's `governJson`. */
  governJson(value: unknown, rules: JsonGovernance): unknown;
  hooks: EvalHooks;
  publish(trace: PersistedTrace): void;
  /** Messages from OTLP logs waiting for their span (pending-messages.ts); absent, no item is looked up. */
  pending?: PendingMessages;
  /** Once per batch that stored anything: tells the dashboard's open pages (live-events.ts). */
  announce?(project: LlmProject, stored: number): void;
  counters: { stored(n: number): void; duplicate(n: number): void; dead(n: number): void; projectGone(n: number): void };
}

interface Prepared {
  item: QueuedItem;
  row: SqlValue[];
  persisted: PersistedTrace;
}

interface Dead {
  item: QueuedItem;
  reason: string;
  /** The item redacted, when that much worked; never the item as sent. */
  redacted: unknown;
}

/**
 * The persist stage, one job (one ingested batch) at a time: normalise and version each prompt template, redact
 * through the governance policy, and store. Idempotent: a retried job (or a client's retried batch, same ids) inserts
 * nothing twice, and only the rows it inserted are published and handed to the eval hooks.
 * An item that cannot be stored as it is goes to the dead list; a store failure throws, so the job is retried.
 */
export class PersistStage {
  private readonly traces: string;
  private readonly deadItems: string;
  private readonly templates = new Map<string, { text: string; hash: string }>();

  constructor(private readonly deps: PersistDeps) {
    this.traces = deps.store.table('traces');
    this.deadItems = deps.store.table('dead_items');
  }

  async run(job: QueuedJob<PersistPayload>): Promise<void> {
    const { items } = job.payload;
    const project = await this.deps.project(job.payload.project);
    if (!project) {
      // Deleted after ingest: its data is gone, and so are these items.
      this.deps.counters.projectGone(items.length);
      return;
    }
    const prepared: Prepared[] = [];
    const dead: Dead[] = [];
    for (const item of items) {
      const template = item.prompt_template ? await this.version(project, item) : null;
      let redacted: RedactedParts;
      try {
        redacted = this.deps.governJson(redactedParts(item), project.settings.redact) as RedactedParts;
      } catch (err) {
        dead.push({ item, reason: `redaction failed: ${(err as Error).message}`, redacted: null });
        continue;
      }
      const stored = template ? { ...template, ...(redacted.prompt_template?.variables !== undefined ? { variables: redacted.prompt_template.variables } : {}) } : null;
      const trace = storedTrace(item, redacted, stored);
      prepared.push({
        item,
        row: traceRow(project.id, item, trace, stored),
        persisted: {
          id: item.id, created_at: item.created_at, project_id: project.id, model: item.model, status: trace.status as 'ok' | 'error',
          latency_ms: item.latency_ms ?? null, cost_usd: item.cost_usd ?? null, template: stored?.name ?? null, version: stored?.version ?? null, trace,
          ...(awaitsMessages(item, trace) ? { awaiting_messages: true as const } : {}),
        },
      });
    }
    const inserted = await this.insert(project, prepared, dead, job.attempt);
    const updated = await this.takePending(project, prepared, inserted);
    this.deps.counters.stored(inserted.length);
    const duplicates = prepared.length - inserted.length - this.lostToDead(prepared, dead);
    if (duplicates) this.deps.counters.duplicate(duplicates);
    if (dead.length) {
      this.deps.counters.dead(dead.length);
      this.deps.log.warn('persist: items went to the dead list', { project: project.name, items: dead.length, reason: dead[0].reason });
    }
    for (const t of inserted) this.deps.publish(t);
    if (inserted.length) this.deps.announce?.(project, inserted.length);
    if (inserted.length) await this.deps.hooks.run(inserted);
    await publishUpdates(updated, this.deps.publish, this.deps.hooks);
  }

  /**
   * After the rows are committed: messages from OTLP logs that arrived before their span go into the stored traces
   * (and into what is published, so the eval hooks see them). Every prepared item is looked up, not only the ones
   * inserted now: a job retried after a crash between its insert and this step finds its rows stored already (and
   * published them then): those it changes now are returned, to be published again as updates.
   */
  private async takePending(project: LlmProject, prepared: Prepared[], inserted: PersistedTrace[]): Promise<PersistedTrace[]> {
    const pending = this.deps.pending;
    const updated: PersistedTrace[] = [];
    if (!pending || !prepared.length) return updated;
    const waiting = await pending.waiting(project.id, prepared.map((p) => p.item.id));
    for (const id of waiting) {
      const { trace } = await pending.apply(project.id, id);
      if (!trace) continue;
      const published = inserted.find((t) => t.id === id);
      if (!published) { updated.push(trace); continue; }
      published.trace = trace.trace;
      const item = prepared.find((p) => p.item.id === id)!.item;
      if (!awaitsMessages(item, trace.trace)) delete published.awaiting_messages;
    }
    return updated;
  }

  /** Prepared items that ended on the dead list (row-by-row isolation moves them there). */
  private lostToDead(prepared: Prepared[], dead: Dead[]): number {
    const ids = new Set(dead.map((d) => d.item.id));
    return prepared.filter((p) => ids.has(p.item.id)).length;
  }

  private async version(project: LlmProject, item: QueuedItem): Promise<StoredTemplate> {
    const { name, raw } = item.prompt_template!;
    const { text, hash } = this.normalised(raw);
    // The text is kept with the project's detectors applied: a template can quote an address or a key too. The hash
    // is of the text as sent, so redaction never merges two versions.
    const kept = () => noNul(this.deps.governJson(text, { detect: project.settings.redact.detect }) as string);
    const { version } = await this.deps.versions.resolve(project, noNul(name), hash, kept, item.created_at);
    return { name, version, hash };
  }

  /** Normalised text and hash by raw template: the same few templates come with every item. */
  private normalised(raw: string): { text: string; hash: string } {
    let hit = this.templates.get(raw);
    if (!hit) {
      const text = normaliseTemplate(raw);
      hit = { text, hash: templateHash(text) };
      if (this.templates.size >= 1_000) this.templates.clear();
      this.templates.set(raw, hit);
    }
    return hit;
  }

  /** Inserts the rows and the dead items in one transaction; resolves to the traces that were not stored before. */
  private async insert(project: LlmProject, prepared: Prepared[], dead: Dead[], attempt: number): Promise<PersistedTrace[]> {
    try {
      return await this.deps.store.transaction(async (tx) => {
        const ids = await this.insertRows(tx, prepared);
        await this.insertDead(tx, project, dead);
        return prepared.filter((p) => ids.has(p.item.id)).map((p) => p.persisted);
      });
    } catch (err) {
      if (attempt < ISOLATE_FROM_ATTEMPT || prepared.length <= 1) throw err;
      return this.insertOneByOne(project, prepared, dead, err);
    }
  }

  /**
   * After repeated failures: each row in a transaction of its own. A row that fails alone goes to the dead list; when
   * every row fails, the store itself is the problem and the job is retried.
   */
  private async insertOneByOne(project: LlmProject, prepared: Prepared[], dead: Dead[], first: unknown): Promise<PersistedTrace[]> {
    const out: PersistedTrace[] = [];
    let failed = 0;
    for (const p of prepared) {
      try {
        const ids = await this.deps.store.transaction((tx) => this.insertRows(tx, [p]));
        if (ids.size) out.push(p.persisted);
      } catch (err) {
        failed++;
        dead.push({ item: p.item, reason: `the store refused the row: ${(err as Error).message}`, redacted: p.persisted.trace });
      }
    }
    if (failed === prepared.length) throw first;
    await this.deps.store.transaction((tx) => this.insertDead(tx, project, dead));
    return out;
  }

  private async insertRows(tx: Transaction, prepared: Prepared[]): Promise<Set<string>> {
    const ids = new Set<string>();
    const columns = TRACE_COLUMNS.join(', ');
    const one = `(${TRACE_COLUMNS.map(() => '?').join(', ')})`;
    for (let i = 0; i < prepared.length; i += ROWS_PER_STATEMENT) {
      const chunk = prepared.slice(i, i + ROWS_PER_STATEMENT);
      // No conflict target: both the (id, created_at) key and the (project_id, id) index make a repeat a no-op.
      const rows = await tx.query<{ id: string }>(
        `INSERT INTO ${this.traces} (${columns}) VALUES ${chunk.map(() => one).join(', ')} ON CONFLICT DO NOTHING RETURNING id`,
        chunk.flatMap((p) => p.row));
      for (const r of rows) ids.add(r.id);
    }
    return ids;
  }

  private async insertDead(tx: Transaction, project: LlmProject, dead: Dead[]): Promise<void> {
    if (!dead.length) return;
    const now = Date.now();
    await tx.insertMany(this.deadItems, ['id', 'project_id', 'created_at', 'failed_at', 'reason', 'item'],
      dead.map((d) => [d.item.id, project.id, d.item.created_at, now, noNul(d.reason.slice(0, 2000)), d.redacted === null ? null : JSON.stringify(d.redacted)]),
      { onConflict: 'ON CONFLICT DO NOTHING' });
  }
}

/** The parts of an item redaction covers, as one value, so the project's JSON paths are written over the item's shape. */
function redactedParts(item: QueuedItem): RedactedParts {
  const parts: RedactedParts = {};
  if (item.input !== undefined) parts.input = item.input;
  if (item.output !== undefined) parts.output = item.output;
  if (item.metadata !== undefined) parts.metadata = item.metadata;
  if (item.error !== undefined) parts.error = item.error;
  if (item.prompt_template?.variables !== undefined) parts.prompt_template = { variables: item.prompt_template.variables };
  return parts;
}
