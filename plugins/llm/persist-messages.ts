import type { Logger, PersistedTrace, QueuedJob } from '@vigil/plugin-sdk';
import type { JsonGovernance } from '../../policies/govern-json.js';
import type { SpanMessages } from './otlp/genai-log-events.js';
import type { MessageParts, PendingMessages } from './pending-messages.js';
import type { LlmProject } from './types.js';

/** A persist job of kind `messages`: the GenAI messages one OTLP logs export carried, per span item, not redacted yet. */
export interface MessagesPayload {
  kind: 'messages';
  project: string;
  spans: SpanMessages[];
}

export const isMessagesPayload = (p: unknown): p is MessagesPayload => (p as { kind?: unknown }).kind === 'messages';

export interface MessagesDeps {
  log: Logger;
  project(id: string): Promise<LlmProject | undefined>;
  /** The governance service's `governJson`, with the project's rules: the same redaction as the persist stage. */
  governJson(value: unknown, rules: JsonGovernance): unknown;
  pending: PendingMessages;
  /** Stored traces these messages changed: published again and handed to the eval hooks (late-messages.ts). */
  updated(traces: PersistedTrace[]): Promise<void>;
  /** applied: their trace was stored (filled, or had them already); waiting: kept for their span. */
  counters: { applied(n: number): void; waiting(n: number): void; dead(n: number): void };
}

/**
 * The handler of `messages` jobs: redacts each span's messages with the project's rules (the JSON paths see
 * `{ input, output }`, the shape a trace's paths are written over), keeps them as pending, then moves them into
 * the span's stored trace if it is there already (pending-messages.ts has the ordering argument). A retried job
 * redoes both steps; filling only empty sides makes that a no-op. Traces it changed were published without their
 * messages: they are published again, as updates, and the eval hooks see them complete.
 */
export class MessagesStage {
  constructor(private readonly deps: MessagesDeps) {}

  async run(job: QueuedJob<MessagesPayload>): Promise<void> {
    const project = await this.deps.project(job.payload.project);
    if (!project) return;
    const redacted: { id: string; parts: MessageParts }[] = [];
    for (const span of job.payload.spans) {
      const parts: MessageParts = {};
      if (span.input !== undefined) parts.input = span.input;
      if (span.output !== undefined) parts.output = span.output;
      try {
        redacted.push({ id: span.id, parts: this.deps.governJson(parts, project.settings.redact) as MessageParts });
      } catch (err) {
        // Never stored unredacted: these messages are dropped, said and counted.
        this.deps.counters.dead(1);
        this.deps.log.warn('persist: messages from OTLP logs could not be redacted and were dropped', { project: project.name, item: span.id, reason: (err as Error).message });
      }
    }
    await this.deps.pending.stash(project.id, redacted);
    let stored = 0;
    const updated: PersistedTrace[] = [];
    for (const { id } of redacted) {
      const applied = await this.deps.pending.apply(project.id, id);
      if (applied.stored) stored++;
      if (applied.trace) updated.push(applied.trace);
    }
    if (stored) this.deps.counters.applied(stored);
    if (redacted.length - stored) this.deps.counters.waiting(redacted.length - stored);
    await this.deps.updated(updated);
  }
}
