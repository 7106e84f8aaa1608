/** The container environments the panel knows, in the order it lists them. */
export const ENGINE_KINDS = ['docker', 'podman', 'nerdctl', 'lxd', 'incus', 'kubernetes'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

export const CONTAINER_ACTIONS = ['start', 'stop', 'restart', 'remove'] as const;
export type ContainerAction = (typeof CONTAINER_ACTIONS)[number];

/** Containers one environment lists at most (the newest first where the engine can sort); more are cut and said so. */
export const MAX_CONTAINERS_PER_ENGINE = 500;
/** Pods one cluster lists at most (the API's `limit`). */
export const MAX_PODS = 1000;
/** Bytes of one list answer read at most before it is cut (and the environment reported as cut). */
export const MAX_LIST_BYTES = 4 * 1024 * 1024;

/** One container, whatever its engine. */
export interface ContainerRow {
  env: EngineKind;
  id: string;
  name: string;
  image: string;
  /** The engine's state word, lower case: running, exited, created, paused, restarting, dead, stopped, frozen. */
  state: string;
  /** The engine's own line (`Up 3 hours`, `Exit 0`); empty where it gives none. */
  status: string;
  /** Epoch seconds; null when unknown. */
  created: number | null;
  /** Published ports, `0.0.0.0:8080->80/tcp` style. */
  ports: string[];
  running: boolean;
}

/** One Kubernetes pod (read-only: logs only). */
export interface PodRow {
  env: 'kubernetes';
  namespace: string;
  name: string;
  /** Containers ready, and containers in the pod. */
  ready: number;
  total: number;
  restarts: number;
  node: string | null;
  phase: string;
  /** Epoch seconds; null when unknown. */
  created: number | null;
  containers: string[];
}

/** What one environment answered with, or why it did not. */
export interface EnvironmentReport {
  kind: EngineKind;
  /** The socket, the cluster's server, or the command it was reached through. */
  endpoint: string;
  state: 'ok' | 'unreachable' | 'error';
  /** Why it is unreachable or failed: `no answer in 3 s`, `connection refused`, the engine's own message. */
  message: string | null;
  /** How long its answer took, ms (up to the time limit). */
  elapsed_ms: number;
  containers: number;
  pods: number;
  /** More than the list bound: the rows are the first ones. */
  cut: boolean;
}

export type ListFormat = 'docker' | 'podman' | 'lxd' | 'incus' | 'kubernetes' | 'nerdctl';

/** A list answer as rows. */
export interface ParsedList {
  containers: ContainerRow[];
  pods: PodRow[];
  /** Kubernetes: the API said more pods exist (`metadata.continue`). */
  more: boolean;
}

/** How an engine has its list answers parsed: in place, or in the plugin's worker pool when large (list-parse.ts). */
export type ListParser = (format: ListFormat, body: Buffer) => Promise<ParsedList>;

/** What an engine lists. */
export interface EngineListing {
  containers: ContainerRow[];
  pods: PodRow[];
  cut: boolean;
}

export interface LogRequest {
  /** Lines from the end. */
  tail: number;
  /** Bytes kept at most. */
  maxBytes: number;
  timeoutMs: number;
  /** Kubernetes: the pod's container (default the first). */
  container?: string;
}

/** One environment reachable through its API or command. */
export interface Engine {
  readonly kind: EngineKind;
  readonly endpoint: string;
  list(timeoutMs: number): Promise<EngineListing>;
  /** Whether the container runs now (for refusing a remove without force); undefined when it does not exist. */
  running?(id: string, timeoutMs: number): Promise<boolean | undefined>;
  act?(id: string, action: ContainerAction, force: boolean, timeoutMs: number): Promise<void>;
  /** The last lines of a container's (or pod's: `namespace/name`) output, bounded. */
  logs(id: string, r: LogRequest): Promise<{ text: string; cut: boolean }>;
  /** A live stream of the output from `tail` lines back, until `signal` aborts; text, demultiplexed. */
  follow?(id: string, r: LogRequest, signal: AbortSignal): Promise<AsyncIterable<Buffer>>;
  /**
   * What a terminal types before a container's id and `sh` to get a shell inside it (`docker -H unix://… exec -it`):
   * the shell runs through the engine's own CLI in a web terminal tab, with the terminal's guards.
   */
  shellPrefix?(): string;
}
