// Which container environments this machine has, and one listing across all of them in which each environment answers
// on its own clock: a hung daemon costs its own row "no answer in 3 s", never the others' rows or more than the limit.
import { access, constants } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { ContainersConfig } from './config-schema.js';
import { DockerEngine, EngineRefused } from './docker-engine.js';
import { KubeEngine } from './kube-engine.js';
import { KubeConfigError } from './kube-config.js';
import { LxdEngine } from './lxd-engine.js';
import { NerdctlEngine } from './nerdctl-engine.js';
import { NoAnswer, Unreachable } from './socket-request.js';
import { parseInPlace } from './list-parse.js';
import type { ContainerRow, Engine, EngineKind, EnvironmentReport, ListParser, PodRow } from './types.js';

/** Where each environment is looked for, in order; the first place that exists is used. */
export function placesOf(config: ContainersConfig, env: NodeJS.ProcessEnv, resolvePath: (p: string) => string): Record<EngineKind, string[]> {
  const s = config.sockets ?? {};
  const dockerHost = env.DOCKER_HOST?.startsWith('unix://') ? env.DOCKER_HOST.slice('unix://'.length) : undefined;
  const runtimeDir = env.XDG_RUNTIME_DIR;
  const kube = config.kubeconfig ? [resolvePath(config.kubeconfig)] : env.KUBECONFIG ? env.KUBECONFIG.split(delimiter).filter(Boolean).slice(0, 1) : [join(homedir(), '.kube', 'config')];
  const nerdctl = config.nerdctl ?? 'nerdctl';
  return {
    docker: s.docker ? [s.docker] : [dockerHost ?? '/var/run/docker.sock'],
    podman: s.podman ? [s.podman] : [...(runtimeDir ? [join(runtimeDir, 'podman/podman.sock')] : []), '/run/podman/podman.sock'],
    nerdctl: nerdctl.includes('/') ? [resolvePath(nerdctl)] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, nerdctl)),
    lxd: s.lxd ? [s.lxd] : ['/var/snap/lxd/common/lxd/unix.socket', '/var/lib/lxd/unix.socket'],
    incus: s.incus ? [s.incus] : ['/var/lib/incus/unix.socket'],
    kubernetes: kube,
  };
}

const present = (path: string, mode: number) => access(path, mode).then(() => true, () => false);

/** The environments found: a socket (or kubeconfig) that exists, a nerdctl that can run. File checks only. */
export async function detectEngines(places: Record<EngineKind, string[]>, kubeContext?: string, parse: ListParser = parseInPlace): Promise<Engine[]> {
  const first = async (paths: string[], mode = constants.F_OK) => {
    for (const p of paths) if (await present(p, mode)) return p;
    return undefined;
  };
  const [docker, podman, nerdctl, lxd, incus, kube] = await Promise.all([
    first(places.docker), first(places.podman), first(places.nerdctl, constants.X_OK), first(places.lxd), first(places.incus), first(places.kubernetes, constants.R_OK),
  ]);
  const engines: Engine[] = [];
  if (docker) engines.push(new DockerEngine('docker', docker, parse));
  // Podman's compatible socket symlinked to Docker's place is one engine, listed once.
  if (podman && podman !== docker) engines.push(new DockerEngine('podman', podman, parse));
  if (nerdctl) engines.push(new NerdctlEngine(nerdctl, parse));
  if (lxd) engines.push(new LxdEngine('lxd', lxd, parse));
  if (incus) engines.push(new LxdEngine('incus', incus, parse));
  if (kube) engines.push(new KubeEngine(kube, parse, kubeContext));
  return engines;
}

/** The panel's words for why an environment did not answer. */
export function describeFailure(err: unknown): { state: 'unreachable' | 'error'; message: string } {
  if (err instanceof NoAnswer || err instanceof Unreachable) return { state: 'unreachable', message: err.message };
  if (err instanceof EngineRefused || err instanceof KubeConfigError) return { state: 'error', message: err.message };
  if (err instanceof SyntaxError) return { state: 'error', message: `the answer is not JSON: ${err.message}` };
  return { state: 'error', message: (err as Error).message ?? String(err) };
}

export interface Listing {
  environments: EnvironmentReport[];
  containers: ContainerRow[];
  pods: PodRow[];
}

/**
 * Asks every engine at once. Each gets `timeoutMs` on its own (its request carries that limit, and a race makes sure
 * of it even for a step that has none): the answer comes within the limit plus the time to merge, whatever hangs.
 */
export async function listAll(engines: readonly Engine[], timeoutMs: number): Promise<Listing> {
  const reports = await Promise.all(engines.map(async (engine) => {
    const began = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new NoAnswer(timeoutMs)), timeoutMs + 50); });
    try {
      const listing = await Promise.race([engine.list(timeoutMs), limit]);
      const endpoint = engine instanceof KubeEngine ? await engine.server().catch(() => engine.endpoint) : engine.endpoint;
      return {
        listing,
        report: {
          kind: engine.kind, endpoint, state: 'ok' as const, message: null, elapsed_ms: Date.now() - began,
          containers: listing.containers.length, pods: listing.pods.length, cut: listing.cut,
        },
      };
    } catch (err) {
      const { state, message } = describeFailure(err);
      return { listing: undefined, report: { kind: engine.kind, endpoint: engine.endpoint, state, message, elapsed_ms: Date.now() - began, containers: 0, pods: 0, cut: false } };
    } finally {
      clearTimeout(timer);
    }
  }));
  return {
    environments: reports.map((r) => r.report),
    containers: reports.flatMap((r) => r.listing?.containers ?? []),
    pods: reports.flatMap((r) => r.listing?.pods ?? []),
  };
}
