import type { AlertDigest, ChannelDelivery, ChannelMessage, ChannelsService, Jobs, Logger } from '@vigil/plugin-sdk';
import type { DigestLedger } from './digest-ledger.js';
import { lastWeek } from './llm-digest-data.js';

interface PluginDigestJob {
  digest: string;
  from: number;
  to: number;
  event_id: string;
}

const DIGEST_ID = /^[a-z][a-z0-9-]{0,39}$/;

/** A digest's delivery id: the digest and its week (and a send-now's minute), as the LLM digest's. */
export const pluginDigestEventId = (digest: string, from: number, sentAt?: number): string =>
  `${digest}:digest:${new Date(from).toISOString().slice(0, 10)}${sentAt === undefined ? '' : `:now-${Math.floor(sentAt / 60_000)}`}`;

export interface PluginDigestDeps {
  jobs: Jobs;
  /** The digests sent (shared with the LLM digests): a week's digest goes out once across restarts. */
  ledger: DigestLedger;
  channels(): ChannelsService | undefined;
  /** The digest channels (`alerts.digests.channels`); none turns the weekly send off (preview and send-now stay). */
  targets: readonly string[] | 'all';
  log: Logger;
  now?: () => number;
}

/**
 * Digests other plugins register (the host digest): sent once a UTC week has ended, through the durable queue
 * `alerts.plugin-digests` deduplicated by the digest's id and week, with a preview and a send-now, like the LLM one.
 */
export class PluginDigests {
  private readonly byId = new Map<string, { digest: AlertDigest; plugin: string }>();
  private readonly now: () => number;
  private readonly queue;

  constructor(private readonly d: PluginDigestDeps) {
    this.now = d.now ?? Date.now;
    this.queue = d.jobs.queue<PluginDigestJob>('plugin-digests', (job) => this.sendWeekly(job.payload), { concurrency: 1, timeoutMs: 120_000 });
  }

  register(digest: AlertDigest, plugin: string): () => void {
    if (!DIGEST_ID.test(digest?.id ?? '') || digest.id === 'llm') throw new TypeError(`alerts: a digest id is lower case letters, digits and -, not "llm"; got ${JSON.stringify(digest?.id)}`);
    if (this.byId.has(digest.id)) throw new TypeError(`alerts: digest ${digest.id} is registered already (by ${this.byId.get(digest.id)!.plugin})`);
    const entry = { digest, plugin };
    this.byId.set(digest.id, entry);
    return () => { if (this.byId.get(digest.id) === entry) this.byId.delete(digest.id); };
  }

  list(): { id: string; summary: string; plugin: string }[] {
    return [...this.byId.values()].map(({ digest, plugin }) => ({ id: digest.id, summary: digest.summary, plugin })).sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Last week's digest `id` (undefined when none is registered), without sending it. */
  async build(id: string, at = this.now()): Promise<{ from: number; to: number; data: Record<string, unknown>; message: ChannelMessage } | undefined> {
    const digest = this.byId.get(id)?.digest;
    if (!digest) return undefined;
    const week = lastWeek(at);
    return { ...week, ...(await digest.build(week)) };
  }

  /** Builds and sends last week's digest `id` now, to the digest channels (every enabled one when none are set). */
  async sendNow(id: string): Promise<{ event_id: string; deliveries: ChannelDelivery[] } | undefined> {
    if (!this.byId.has(id)) return undefined;
    const at = this.now();
    const week = lastWeek(at);
    const eventId = pluginDigestEventId(id, week.from, at);
    const deliveries = await this.send({ digest: id, ...week, event_id: eventId }, this.d.targets.length ? this.d.targets : 'all');
    return deliveries && { event_id: eventId, deliveries };
  }

  /** Queues last week's digest of every registered digest that no channel has yet: what the hourly check runs. */
  async queueWeekly(): Promise<number> {
    const channels = this.d.channels();
    if (!channels || this.d.targets.length === 0 || this.byId.size === 0) return 0;
    const week = lastWeek(this.now());
    const ids = [...this.byId.keys()].map((digest) => ({ digest, id: pluginDigestEventId(digest, week.from) }));
    const sent = await this.d.ledger.sent(ids.map((x) => x.id));
    return this.queue.enqueueMany(ids.filter((x) => !sent.has(x.id)).map(({ digest, id }) => ({
      payload: { digest, ...week, event_id: id }, options: { dedupeKey: id, group: digest },
    })));
  }

  /** The weekly job: sends the digest unless the ledger has it, and records it once the channels hold it. */
  private async sendWeekly(job: PluginDigestJob): Promise<void> {
    if ((await this.d.ledger.sent([job.event_id])).has(job.event_id)) return;
    const deliveries = await this.send(job);
    if (deliveries?.length) await this.d.ledger.record(job.event_id, job.digest, new Date(job.from).toISOString().slice(0, 10), this.now());
  }

  private async send(job: PluginDigestJob, targets: readonly string[] | 'all' = this.d.targets): Promise<ChannelDelivery[] | undefined> {
    const digest = this.byId.get(job.digest)?.digest;
    if (!digest) return undefined;
    const channels = this.d.channels();
    if (!channels) {
      this.d.log.warn('a digest was due with no channels plugin to send it: add a `channels` section', { digest: job.digest });
      return [];
    }
    const { message } = await digest.build({ from: job.from, to: job.to });
    return channels.deliver({ eventId: job.event_id, channels: targets, message });
  }
}
