import { settledWithin, type Bus, type Metrics, type Topics, type TopicHandler, type SubscribeOptions } from '@vigil/plugin-sdk';
import { SubscriberQueue } from './subscriber-queue.js';

const DEFAULT_QUEUE = 10_000;
const DEFAULT_BATCH = 256;

type AnyQueue = SubscriberQueue<unknown>;

/**
 * In-process typed topics with a bounded queue per subscriber. Publishing is synchronous and never waits for a
 * subscriber; a slow subscriber loses messages (counted in `vigil_bus_dropped_total`), never slows the publisher.
 */
export class MessageBus {
  private readonly topics = new Map<string, AnyQueue[]>();
  private readonly published;
  private readonly dropped;
  private readonly delivered;

  constructor(metrics: Metrics, private readonly onHandlerError: (plugin: string, err: unknown) => void) {
    this.published = metrics.counter('vigil_bus_published_total', { help: 'Messages published, per topic.', labelNames: ['topic'] });
    this.dropped = metrics.counter('vigil_bus_dropped_total', {
      help: 'Messages dropped because a subscriber queue was full.', labelNames: ['topic', 'subscriber'],
    });
    this.delivered = metrics.counter('vigil_bus_delivered_total', {
      help: 'Messages handed to subscribers.', labelNames: ['topic', 'subscriber'],
    });
    metrics.gauge('vigil_bus_queue_depth', {
      help: 'Messages waiting in a subscriber queue.',
      labelNames: ['topic', 'subscriber'],
      collect: (g) => {
        for (const queues of this.topics.values()) for (const q of queues) g.labels(q.topic, q.subscriber).set(q.depth);
      },
    });
  }

  publish(topic: string, message: unknown): number {
    const queues = this.topics.get(topic);
    this.published.labels(topic).inc();
    if (!queues) return 0;
    let accepted = 0;
    for (let i = 0; i < queues.length; i++) if (queues[i].offer(message)) accepted++;
    return accepted;
  }

  subscribe(plugin: string, topic: string, handler: TopicHandler<unknown>, options: SubscribeOptions & { subscriber?: string } = {}): () => Promise<void> {
    const subscriber = options.subscriber ?? plugin;
    const queue = new SubscriberQueue(
      topic, subscriber, handler,
      options.queue ?? DEFAULT_QUEUE, options.batch ?? DEFAULT_BATCH,
      this.dropped.labels(topic, subscriber), this.delivered.labels(topic, subscriber),
      (err) => this.onHandlerError(plugin, err),
      options.onDrop && ((message: unknown) => {
        try {
          options.onDrop!(message);
        } catch (err) {
          this.onHandlerError(plugin, err);
        }
      }),
    );
    // Copy-on-write: publish iterates a stable array without locks.
    this.topics.set(topic, [...(this.topics.get(topic) ?? []), queue]);
    return () => {
      queue.close();
      const rest = (this.topics.get(topic) ?? []).filter((q) => q !== queue);
      if (rest.length) this.topics.set(topic, rest);
      else this.topics.delete(topic);
      return queue.idle();
    };
  }

  hasSubscribers(topic: string): boolean {
    return this.topics.has(topic);
  }

  /** Waits until every subscriber queue is empty, at most `timeoutMs`. Used when stopping. */
  async drain(timeoutMs: number): Promise<boolean> {
    const all = [...this.topics.values()].flat();
    return settledWithin(Promise.all(all.map((q) => q.idle())), timeoutMs);
  }

  /** The view a plugin gets: subscriptions are named after it and its handler errors are attributed to it. */
  forPlugin(plugin: string): Bus {
    return {
      publish: <K extends keyof Topics & string>(topic: K, message: Topics[K]) => this.publish(topic, message),
      subscribe: <K extends keyof Topics & string>(topic: K, handler: TopicHandler<Topics[K]>, options?: SubscribeOptions<Topics[K]> & { subscriber?: string }) =>
        this.subscribe(plugin, topic, handler as TopicHandler<unknown>, options as SubscribeOptions),
      hasSubscribers: (topic) => this.hasSubscribers(topic),
    };
  }
}
