import type { PromptVersionChange, SqlValue } from '@vigil/plugin-sdk';
import { governJson, governOwnedJson } from '../../../policies/govern-json.js';
import { awaitsMessages, fromOtlpSpan } from '../late-messages.js';
import { normaliseTemplate, templateHash } from '../normalise-template.js';
import type { PromptVersions } from '../prompt-versions.js';
import type { QueuedItem } from '../queued-item.js';
import { noNul, storedTrace, traceRow, type RedactedParts, type StoredTemplate } from '../trace-record.js';
import type { LaneProject, StoredTrace } from './lane-types.js';

const CACHED_TEMPLATE_CHARS = 16_384;

/** An item ready to insert: its row, and what is said about it once stored. */
export interface PreparedTrace {
  item: QueuedItem;
  row: SqlValue[];
  ref: StoredTrace;
}

/** An item that cannot be stored as it is: the dead list keeps the reason, and its redacted form when there is one. */
export interface DeadItem {
  item: QueuedItem;
  reason: string;
  redacted: unknown;
}

/**
 * Turns accepted items into rows: each prompt template normalised, hashed and versioned (its text kept with the
 * project's detectors applied), and `input`, `output`, `metadata`, `error` and the template's variables redacted by
 * the project's rules, written over the item's shape. Nothing of an item reaches a row or a result unredacted.
 */
export class TracePreparer {
  private readonly templates = new Map<string, { text: string; hash: string }>();

  constructor(private readonly versions: PromptVersions) {}

  /** `changes` gets the prompt versions this item made (announced by the main thread). */
  async prepare(project: LaneProject, item: QueuedItem, withJson: boolean, changes: PromptVersionChange[]): Promise<PreparedTrace | DeadItem> {
    const template = item.prompt_template ? await this.version(project, item, changes) : null;
    const fromSpan = fromOtlpSpan(item);
    let redacted: RedactedParts;
    try {
      // The item was parsed for this request alone: governed in place, without a copy.
      redacted = governOwnedJson(redactedParts(item), project.settings.redact) as RedactedParts;
    } catch (err) {
      return { item, reason: `redaction failed: ${(err as Error).message}`, redacted: null };
    }
    const stored = template ? { ...template, ...(redacted.prompt_template?.variables !== undefined ? { variables: redacted.prompt_template.variables } : {}) } : null;
    const trace = storedTrace(item, redacted, stored);
    const row = traceRow(project.id, item, trace, stored);
    const ref: StoredTrace = {
      id: item.id, created_at: item.created_at, project_id: project.id, model: item.model, status: trace.status as 'ok' | 'error',
      latency_ms: item.latency_ms ?? null, cost_usd: item.cost_usd ?? null, template: stored?.name ?? null, version: stored?.version ?? null,
      ...(awaitsMessages(fromSpan, trace) ? { awaiting_messages: true as const } : {}),
      // The row's last value is the trace's JSON: sent back as it is, never serialised twice.
      ...(withJson ? { json: row[row.length - 1] as string } : {}),
    };
    return { item, row, ref };
  }

  private async version(project: LaneProject, item: QueuedItem, changes: PromptVersionChange[]): Promise<StoredTemplate> {
    const { name, raw } = item.prompt_template!;
    const { text, hash } = this.normalised(raw);
    // The hash is of the text as sent, so redaction never merges two versions; the kept text is redacted, since a
    // template can quote an address or a key too. A known version costs no redaction.
    const kept = () => noNul(governJson(text, { detect: project.settings.redact.detect }) as string);
    const { version, change } = await this.versions.resolve(project, noNul(name), hash, kept, item.created_at);
    if (change) changes.push(change);
    return { name, version, hash };
  }

  /**
   * Normalised text and hash by raw template: the same few templates come with every item. Only templates of up to
   * `CACHED_TEMPLATE_CHARS` are kept, so the cache holds at most 1,000 × that whatever a tenant sends.
   */
  private normalised(raw: string): { text: string; hash: string } {
    const hit = this.templates.get(raw);
    if (hit) return hit;
    const text = normaliseTemplate(raw);
    const made = { text, hash: templateHash(text) };
    if (raw.length <= CACHED_TEMPLATE_CHARS) {
      if (this.templates.size >= 1_000) this.templates.clear();
      this.templates.set(raw, made);
    }
    return made;
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
