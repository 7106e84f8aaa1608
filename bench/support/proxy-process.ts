// A proxy under test in a process of its own: the bare undici proxy or the gateway (gateway-throughput.ts's
// `startBareProxy` and `startGateway`), driven over IPC. Two proxies in one process share one V8 heap, so garbage the
// gateway leaves is partly collected during the bare proxy's rounds; in separate processes each pays for its own.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type ProxyKind = 'bare' | 'gateway';

/** CPU the proxy's process has used so far, in µs: all its threads, and its event loop's alone (NaN without /proc). */
export interface ProxyCpu { all: number; loop: number }
export interface TelemetryLaneCounts { published: number; stored: number; dropped: number; settled: number; policyFailures: number }
/** The proxy process's scavenges so far: how many, and how long they paused its event loop in all (ms). */
export interface ProxyGc { scavenges: number; pauseMs: number }

/** How a gateway is started: its rules (the benchmark's RULES by default) and its `capture` section. */
export interface GatewaySettings { rules?: unknown[]; capture?: Record<string, unknown> }

/** What the parent asks its proxy's process (support/proxy-child.ts). */
export type ProxyRequest = 'cpu' | 'gc' | 'drain' | 'lane' | 'stop';

export class ProxyProcess {
  private constructor(private readonly child: ChildProcess, readonly port: number) {}

  /** Starts `kind` in front of the upstream on `upstreamPort`, with this process's Node and V8 flags. */
  static async start(kind: ProxyKind, upstreamPort: number, gateway: GatewaySettings = {}): Promise<ProxyProcess> {
    const child = fork(fileURLToPath(new URL('./proxy-child.js', import.meta.url)), [kind, String(upstreamPort), JSON.stringify(gateway)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`${kind} proxy process exited with ${code}`)));
    });
    return new ProxyProcess(child, port);
  }

  cpu(): Promise<ProxyCpu> {
    return this.ask('cpu');
  }

  gc(): Promise<ProxyGc> {
    return this.ask('gc');
  }

  /** Waits until the gateway's telemetry lane has settled every exchange so far: how many ms that took (0 for bare). */
  drained(): Promise<number> {
    return this.ask('drain');
  }

  /** The gateway's telemetry lane counts (gateway-throughput.ts's `telemetryLane`). */
  lane(): Promise<TelemetryLaneCounts> {
    return this.ask('lane');
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send('stop' satisfies ProxyRequest);
    await exited;
  }

  private ask<T>(request: ProxyRequest): Promise<T> {
    return new Promise((resolve) => {
      this.child.once('message', (m) => resolve((m as { reply: T }).reply));
      this.child.send(request);
    });
  }
}
