// A proxy under test in a process of its own: the bare undici proxy or the gateway (gateway-throughput.ts's
// `startBareProxy` and `startGateway`), driven over IPC. Two proxies in one process share one V8 heap, so garbage the
// gateway leaves is partly collected during the bare proxy's rounds; in separate processes each pays for its own.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type ProxyKind = 'bare' | 'gateway';

export class ProxyProcess {
  private constructor(private readonly child: ChildProcess, readonly port: number) {}

  /** Starts `kind` in front of the upstream on `upstreamPort`, with this process's Node and V8 flags. */
  static async start(kind: ProxyKind, upstreamPort: number): Promise<ProxyProcess> {
    const child = fork(fileURLToPath(import.meta.url), ['--role=proxy', kind, String(upstreamPort)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`${kind} proxy process exited with ${code}`)));
    });
    return new ProxyProcess(child, port);
  }

  /** Resolves once the gateway's telemetry lane has settled every exchange so far (at once for the bare proxy). */
  drained(): Promise<void> {
    return this.ask('drain');
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send('stop');
    await exited;
  }

  private ask(message: string): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('message', () => resolve());
      this.child.send(message);
    });
  }
}

async function proxyMain(kind: ProxyKind, upstreamPort: number): Promise<void> {
  const { drained, startBareProxy, startGateway } = await import('../gateway-throughput.js');
  const proxy = kind === 'bare' ? await startBareProxy(upstreamPort) : await startGateway(upstreamPort);
  const stop = () => ('rt' in proxy ? proxy.rt.stop() : proxy.close());
  process.on('message', async (m) => {
    if (m === 'drain') {
      if ('rt' in proxy) await drained(proxy.rt);
      process.send!('drained');
    } else if (m === 'stop') {
      await stop();
      process.exit(0);
    }
  });
  // The benchmark ended without stopping this one (it failed, say): nothing outlives it.
  process.once('disconnect', () => void stop().finally(() => process.exit(0)));
  process.send!({ port: proxy.port });
}

const role = process.argv.indexOf('--role=proxy');
if (role !== -1) await proxyMain(process.argv[role + 1] as ProxyKind, Number(process.argv[role + 2]));
