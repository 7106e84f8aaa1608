import type { ChannelDelivery, ChannelMessage, ChannelsService, Jobs, LlmService, Logger } from '@vigil/plugin-sdk';
import type { EventStore } from '../event-store.js';
import type { DigestLedger } from './digest-ledger.js';
import { gatherLlmDigest, lastWeek, type LlmDigestData } from './llm-digest-data.js';
import { renderLlmDigest } from './llm-digest-message.js';

interface DigestJob {
  project: string;
  from: number;
  to: number;
  event_id: string;
}

export interface LlmDigestDeps {
  jobs: Jobs;
  llm: LlmService;
  events: EventStore;
  /** The weekly digests sent: a week's digest is sent once across restarts, even after the channels pruned its deliveries. */
  ledger: DigestLedger;
  channels(): ChannelsService | undefined;
  /** Where the weekly digest goes: channel ids, or all; none turns the weekly send off (preview and send-now stay). */
  targets: readonly string[] | 'all';
  dashboardUrl(): string;
  log: Logger;
  now?: () => number;
}

/**
 * The id of a digest's deliveries: the project and the week, so the channels send one week's digest to a channel at
 * most once, whichever process or job builds it. A send-now adds its minute: a double click sends one.
 */
export const digestEventId = (project: string, from: number, sentAt?: number): string =>
  `llm:digest:${project}:${new Date(from).toISOString().slice(0, 10)}${sentAt === undefined ? '' : `:now-${Math.floor(sentAt / 60_000)}`}`;

/**
 * The weekly LLM digest of every project: an hourly check queues, once a week has ended, one job per project on the
 * durable queue `alerts.digests` (deduplicated by the digest's id), which builds the digest and hands it to the
 * channels. The preview and send-now build the same message.
 */
export class LlmDigests {
  private readonly now: () => number;
  private readonly queue;

  constructor(private readonly d: LlmDigestDeps) {
    this.now = d.now ?? Date.now;
    this.queue = d.jobs.queue<DigestJob>('digests', (job) => this.sendWeekly(job.payload), { concurrency: 1, timeoutMs: 120_000 });
  }

  /** The week's digest of `project` (last week by default): its data and its message, without sending it. */
  async build(project: string, at = this.now()): Promise<{ data: LlmDigestData; message: ChannelMessage } | undefined> {
    const ref = await this.d.llm.project(project);
    if (!ref) return undefined;
    const data = await gatherLlmDigest(this.d.llm, this.d.events, ref, lastWeek(at));
    return { data, message: renderLlmDigest(data, this.d.dashboardUrl()) };
  }

  /** Builds and sends last week's digest of `project` now, to the digest's channels (every enabled one when none are set). */
  async sendNow(project: string): Promise<{ event_id: string; deliveries: ChannelDelivery[] } | undefined> {
    const at = this.now();
    const week = lastWeek(at);
    const eventId = digestEventId(project, week.from, at);
    const deliveries = await this.send({ project, ...week, event_id: eventId }, this.d.targets.length ? this.d.targets : 'all');
    return deliveries && { event_id: eventId, deliveries };
  }

  /** Queues last week's digest of every project whose digest no channel has yet: what the hourly check runs. */
  async queueWeekly(): Promise<number> {
    const channels = this.d.channels();
    if (!channels || this.d.targets.length === 0) return 0;
    const week = lastWeek(this.now());
    const projects = await this.d.llm.projects();
    const ids = projects.map((p) => digestEventId(p.name, week.from));
    const sent = await this.d.ledger.sent(ids);
    // Digests sent before the ledger was kept: their deliveries say so.
    for (const x of await channels.deliveries(ids.filter((id) => !sent.has(id)))) sent.add(x.event_id);
    const due = projects.map((p, i) => ({ project: p.name, id: ids[i] })).filter((x) => !sent.has(x.id));
    return this.queue.enqueueMany(due.map(({ project, id }) => ({
      payload: { project, ...week, event_id: id }, options: { dedupeKey: id, group: project },
    })));
  }

  /** The weekly job: sends the digest unless the ledger has it (a job queued again after the first one finished). */
  private async sendWeekly(job: DigestJob): Promise<void> {
    if ((await this.d.ledger.sent([job.event_id])).has(job.event_id)) return;
    const deliveries = await this.send(job);
    // Recorded once the channels hold it: a crash before leaves it due, and the channels' key dedupes the resend.
    if (deliveries?.length) await this.d.ledger.record(job.event_id, job.project, new Date(job.from).toISOString().slice(0, 10), this.now());
  }

  private async send(job: DigestJob, targets: readonly string[] | 'all' = this.d.targets): Promise<ChannelDelivery[] | undefined> {
    const channels = this.d.channels();
    if (!channels) {
      this.d.log.warn('a digest was due with no channels plugin to send it: add a `channels` section', { project: job.project });
      return [];
    }
    const ref = await this.d.llm.project(job.project);
    if (!ref) return undefined; // The project was deleted since.
    const data = await gatherLlmDigest(this.d.llm, this.d.events, ref, { from: job.from, to: job.to });
    return channels.deliver({ eventId: job.event_id, channels: targets, message: renderLlmDigest(data, this.d.dashboardUrl()) });
  }
}
