/** A request body being read from a client, as the pace watch sees it. */
export interface PacedBody {
  /** Bytes of the body received so far. */
  readonly received: number;
  /**
   * When (performance.now() ms) the body must be in, or Infinity: the bound on the buffered phase, which a client
   * keeping any pace above the minimum could otherwise stretch without end.
   */
  readonly deadline: number;
  /**
   * True while the exchange waits on the client for bytes. False while the gateway itself holds the body back: it
   * is waiting for an upstream connection, or the upstream reads slowly (backpressure). That time is not the
   * client's to account for.
   */
  waitingOnClient(): boolean;
  /** The client is too slow; called once, after the watch has let go of the body. */
  tooSlow(why: SlowBody): void;
}

/** Why a body was cut: nothing at all in a window, too little in a window, or the buffered phase took too long. */
export type SlowBody = 'idle' | 'rate' | 'deadline';

interface Window { start: number; receivedAtStart: number }

/** How often bodies are checked: often enough that a window is cut close to its end, at most once a second. */
const MAX_TICK_MS = 1000;
const MIN_TICK_MS = 10;

/**
 * Watches request bodies on one timer: every window of `windowMs` spent waiting on a client must bring at least
 * `minRate` bytes per second on average, and at least one byte. That is Envoy's stream idle timeout and Apache's
 * mod_reqtimeout `MinRate` in one rule, applied to buffered and streamed bodies alike, so that no client holds a
 * buffer, or an upstream connection, for longer than the window at less than the rate. Time the gateway spends
 * holding the body back resets the window: a client is never cut for the upstream's slowness.
 *
 * One interval timer for all bodies, unref'd: a timer per request would cost more than the check.
 */
export class BodyPace {
  private readonly bodies = new Map<PacedBody, Window>();
  private timer: NodeJS.Timeout | undefined;
  private readonly minBytes: number;
  private readonly tickMs: number;

  /** `windowMs` 0 disables the window rule (deadlines still hold); `minRate` in bytes per second. */
  constructor(private readonly windowMs: number, minRate: number, deadlineMs: number) {
    this.minBytes = Math.max(1, Math.floor((minRate * windowMs) / 1000));
    const finest = Math.min(windowMs || Infinity, deadlineMs || Infinity);
    this.tickMs = Number.isFinite(finest) ? Math.max(MIN_TICK_MS, Math.min(MAX_TICK_MS, Math.floor(finest / 4))) : 0;
  }

  /** True when neither a window nor a deadline is configured: nothing is ever cut. */
  get disabled(): boolean {
    return this.tickMs === 0;
  }

  get watching(): number {
    return this.bodies.size;
  }

  watch(body: PacedBody, now: number): void {
    if (this.disabled) return;
    this.bodies.set(body, { start: now, receivedAtStart: body.received });
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.check(performance.now()), this.tickMs);
      this.timer.unref();
    }
  }

  /**
   * The timer stays when the last body leaves: the next check stops it. Stopped here, a gateway serving one request
   * at a time would make and clear an interval per request, which cost more than the watch itself (bench/gateway-cpu.ts).
   */
  unwatch(body: PacedBody): void {
    this.bodies.delete(body);
  }

  /** One pass over the bodies (the timer's; public so that tests can step time). */
  check(now: number): void {
    if (this.bodies.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const slow: [PacedBody, SlowBody][] = [];
    for (const [body, w] of this.bodies) {
      if (now >= body.deadline) {
        slow.push([body, 'deadline']);
      } else if (this.windowMs === 0 || !body.waitingOnClient()) {
        w.start = now;
        w.receivedAtStart = body.received;
      } else if (now - w.start >= this.windowMs) {
        const got = body.received - w.receivedAtStart;
        if (got < this.minBytes) {
          slow.push([body, got === 0 ? 'idle' : 'rate']);
        } else {
          w.start = now;
          w.receivedAtStart = body.received;
        }
      }
    }
    // Let go first, then call: tooSlow ends the exchange, which unwatches (a no-op by then) and may start others.
    for (const [body, why] of slow) {
      this.unwatch(body);
      body.tooSlow(why);
    }
  }

  stop(): void {
    this.bodies.clear();
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
