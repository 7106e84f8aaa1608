// The process a ProxyProcess (proxy-process.ts) starts: one proxy under test, answering its parent over IPC.
// Usage (by ProxyProcess only): node proxy-child.js bare|gateway UPSTREAM_PORT GATEWAY_SETTINGS_JSON
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { drained, RULES, startBareProxy, startGateway, telemetryLane } from '../gateway-throughput.js';
import { procStatFields } from '../../tests/support/proc-stat.js';
import type { GatewaySettings, ProxyCpu, ProxyGc, ProxyKind, ProxyRequest } from './proxy-process.js';

/** CPU time of the calling thread so far, in µs (clock ticks of 10 ms, USER_HZ 100), or NaN where /proc cannot tell. */
function threadCpuMicros(): number {
  try {
    const fields = procStatFields('/proc/thread-self/stat');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** Counts this process's scavenges (its main isolate's: workers have heaps of their own) as they happen. */
function observeScavenges(): ProxyGc {
  const gc: ProxyGc = { scavenges: 0, pauseMs: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
      if (e.detail?.kind !== constants.NODE_PERFORMANCE_GC_MINOR) continue;
      gc.scavenges++;
      gc.pauseMs += e.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  return gc;
}

async function proxyMain(kind: ProxyKind, upstreamPort: number, settings: GatewaySettings): Promise<void> {
  const gc = observeScavenges();
  const gateway = kind === 'gateway' ? await startGateway(upstreamPort, settings.rules ?? RULES, settings.capture) : null;
  const bare = gateway ? null : await startBareProxy(upstreamPort);
  const stop = () => (gateway ? gateway.stop() : bare!.close());
  const answer = async (request: ProxyRequest): Promise<unknown> => {
    switch (request) {
      case 'cpu': {
        const used = process.cpuUsage();
        return { all: used.user + used.system, loop: threadCpuMicros() } satisfies ProxyCpu;
      }
      case 'gc': return { ...gc };
      case 'drain': return gateway ? drained(gateway) : 0;
      case 'lane': return gateway ? telemetryLane(gateway) : { published: 0, stored: 0, dropped: 0, settled: 0, policyFailures: 0 };
      case 'stop':
        await stop();
        return process.exit(0);
    }
  };
  process.on('message', async (m) => process.send!({ reply: await answer(m as ProxyRequest) }));
  // The benchmark ended without stopping this one (it failed, say): nothing outlives it.
  process.once('disconnect', () => void stop().finally(() => process.exit(0)));
  process.send!({ port: (gateway ?? bare!).port });
}

const [kind, upstreamPort, settings] = process.argv.slice(2);
await proxyMain(kind as ProxyKind, Number(upstreamPort), JSON.parse(settings) as GatewaySettings);
