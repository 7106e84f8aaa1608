import { Resolver } from 'node:dns/promises';

export interface ReverseDnsOptions {
  /** One lookup's deadline, ms. */
  timeoutMs: number;
  /** Lookups in flight at once. */
  concurrency: number;
  /** How long an answer (a name, or none) is kept, ms. */
  ttlMs: number;
  /** Addresses one request may look up at most; the rest are left unresolved. */
  perRequest: number;
  /** Answers kept at most: the oldest go first. */
  cacheMax?: number;
}

/** Reverse lookups (PTR) for the connections table: bounded in time, in flight and per request, and cached. */
export class ReverseDns {
  private readonly cache = new Map<string, { at: number; name: string | null }>();
  private readonly resolver: Resolver;

  private readonly reverse: (address: string) => Promise<string[]>;

  /** `reverse`: the PTR lookup (default c-ares's); tests give their own. */
  constructor(private readonly o: ReverseDnsOptions, private readonly now: () => number = Date.now, reverse?: (address: string) => Promise<string[]>) {
    // c-ares, not getaddrinfo: no thread of the pool is held by a slow server, and the timeout is its own.
    this.resolver = new Resolver({ timeout: o.timeoutMs, tries: 1 });
    this.reverse = reverse ?? ((address) => this.resolver.reverse(address));
  }

  private async one(address: string): Promise<string | null> {
    const hit = this.cache.get(address);
    if (hit && this.now() - hit.at < this.o.ttlMs) return hit.name;
    let name: string | null = null;
    try {
      const names = await Promise.race([
        this.reverse(address),
        new Promise<string[]>((resolve) => { setTimeout(() => resolve([]), this.o.timeoutMs + 100); }),
      ]);
      name = names[0] ?? null;
    } catch { /* no PTR record, or no answer: none */ }
    this.cache.delete(address);
    this.cache.set(address, { at: this.now(), name });
    if (this.cache.size > (this.o.cacheMax ?? 4096)) this.cache.delete(this.cache.keys().next().value!);
    return name;
  }

  /** Names of `addresses` (the first `perRequest` of them); loopback and wildcard addresses are not asked about. */
  async names(addresses: Iterable<string>): Promise<{ names: Record<string, string | null>; asked: number; skipped: number }> {
    const unique = [...new Set(addresses)].filter((a) => a !== '0.0.0.0' && a !== '::' && !a.startsWith('127.') && a !== '::1');
    const todo = unique.slice(0, this.o.perRequest);
    const names: Record<string, string | null> = {};
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const address = todo[next++];
        names[address] = await this.one(address.startsWith('::ffff:') ? address.slice(7) : address);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.o.concurrency, todo.length) }, worker));
    return { names, asked: todo.length, skipped: unique.length - todo.length };
  }
}
