import type { HostInterfaceCounters } from '@vigil/plugin-sdk';

/** One interface's rates between two readings, and its counters. */
export interface InterfaceRate {
  name: string;
  loopback: boolean;
  /** Bytes and packets a second; null on the first reading or after a counter went back (a driver reload). */
  rx_bps: number | null; tx_bps: number | null; rx_pps: number | null; tx_pps: number | null;
  rx_bytes: number; tx_bytes: number;
  rx_errors: number; tx_errors: number; rx_dropped: number; tx_dropped: number;
  /** Errors and drops since the previous reading (in and out together): non-zero means it is happening now. */
  new_errors: number | null; new_drops: number | null;
}

/** Readings closer than this are measured against an older one, so rates are never over a sliver of time. */
const MIN_WINDOW_MS = 500;
const MAX_BASES = 8;

interface Reading { at: number; counters: Map<string, HostInterfaceCounters> }

/** Per-interface rates from successive counter readings (the host service's `interfaces()`). */
export class InterfaceRates {
  private bases: Reading[] = [];

  constructor(private readonly read: () => Promise<HostInterfaceCounters[]>, private readonly now: () => number = Date.now) {}

  /** Rates against the newest earlier reading at least MIN_WINDOW_MS old; the first call waits that long for one. */
  async rates(): Promise<{ interval_ms: number; interfaces: InterfaceRate[] }> {
    if (this.bases.length === 0) {
      this.bases.push({ at: this.now(), counters: new Map((await this.read()).map((c) => [c.name, c])) });
      await new Promise((r) => setTimeout(r, MIN_WINDOW_MS));
    }
    const at = this.now();
    const counters = new Map((await this.read()).map((c) => [c.name, c]));
    let base = this.bases[0];
    for (let i = this.bases.length - 1; i >= 0; i--) if (at - this.bases[i].at >= MIN_WINDOW_MS) { base = this.bases[i]; break; }
    this.bases.push({ at, counters });
    let first = 0;
    for (let i = this.bases.length - 1; i >= 0; i--) if (at - this.bases[i].at >= MIN_WINDOW_MS) { first = i; break; }
    this.bases = this.bases.slice(Math.max(first, this.bases.length - MAX_BASES));
    const seconds = (at - base.at) / 1000;
    const rate = (a: number | undefined, b: number) => (a === undefined || b < a || !(seconds > 0) ? null : (b - a) / seconds);
    const delta = (a: number | undefined, b: number) => (a === undefined || b < a ? null : b - a);
    const interfaces = [...counters.values()].map((c): InterfaceRate => {
      const b = base.counters.get(c.name);
      const errs = delta(b ? b.rx_errors + b.tx_errors : undefined, c.rx_errors + c.tx_errors);
      const drops = delta(b ? b.rx_dropped + b.tx_dropped : undefined, c.rx_dropped + c.tx_dropped);
      return {
        name: c.name, loopback: c.name === 'lo',
        rx_bps: rate(b?.rx_bytes, c.rx_bytes), tx_bps: rate(b?.tx_bytes, c.tx_bytes),
        rx_pps: rate(b?.rx_packets, c.rx_packets), tx_pps: rate(b?.tx_packets, c.tx_packets),
        rx_bytes: c.rx_bytes, tx_bytes: c.tx_bytes, rx_errors: c.rx_errors, tx_errors: c.tx_errors, rx_dropped: c.rx_dropped, tx_dropped: c.tx_dropped,
        new_errors: errs, new_drops: drops,
      };
    }).sort((a, b) => Number(a.loopback) - Number(b.loopback) || a.name.localeCompare(b.name));
    return { interval_ms: at - base.at, interfaces };
  }
}
