import type { Bus, UiService } from '@vigil/plugin-sdk';
import type { HostLive } from './live-types.js';

/** The live stream topic pages subscribe to (`GET /api/ui/stream?topics=host.live`). */
export const LIVE_TOPIC = 'host.live';

export interface LiveStreamOptions {
  ui: UiService | undefined;
  bus: Bus;
  intervalMs: number;
  read(): Promise<HostLive>;
  /** Counts each live sample taken (`vigil_probes_live_samples_total`): it stays still while nobody watches. */
  taken: { inc(): void };
  /** Wraps the timer's callback so a failed reading is logged and counted, never thrown. */
  contain(what: string, fn: () => Promise<void>): () => void;
}

/**
 * The 2 s live sample: taken and published only while at least one page subscribes to `host.live` (the ui plugin
 * says when the first comes and the last goes); nothing is read while nobody watches. Without the ui plugin there
 * are no pages, so nothing ever runs.
 */
export class LiveStream {
  private timer: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;
  private busy = false;

  constructor(private readonly o: LiveStreamOptions) {}

  start(): void {
    const tick = this.o.contain('host live sample', () => this.publishOne());
    this.unwatch = this.o.ui?.watch(LIVE_TOPIC, (watched) => {
      if (watched && !this.timer) {
        tick();
        this.timer = setInterval(tick, this.o.intervalMs).unref();
      } else if (!watched && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    });
  }

  /** Whether samples are being taken (someone watches). */
  get running(): boolean {
    return this.timer !== undefined;
  }

  private async publishOne(): Promise<void> {
    // A slow reading (a hung statfs, nvidia-smi) must not stack up readings behind it.
    if (this.busy) return;
    this.busy = true;
    try {
      const live = await this.o.read();
      this.o.taken.inc();
      if (this.o.bus.hasSubscribers('ui.event')) this.o.bus.publish('ui.event', { topic: LIVE_TOPIC, data: live });
    } finally {
      this.busy = false;
    }
  }

  /** Safe to call twice, and without start(). */
  stop(): void {
    this.unwatch?.();
    this.unwatch = undefined;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
