import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `containers:` section. `containers: {}` looks for every engine at its usual place. */
export interface ContainersConfig {
  /** Unix sockets of the engines' APIs, where they are not at their usual places. */
  sockets?: { docker?: string; podman?: string; lxd?: string; incus?: string };
  /** The kubeconfig to read; default $KUBECONFIG, else ~/.kube/config. */
  kubeconfig?: string;
  /** The kubeconfig context; default its current-context. */
  kube_context?: string;
  /** The nerdctl command; default `nerdctl` on PATH. */
  nerdctl?: string;
  /** How long each environment has to answer a list, a log read or a state check. */
  timeout: string | number;
  /** How long a start, stop, restart or remove may take. */
  action_timeout: string | number;
  logs: { tail: number; max_tail: number; max_bytes: number; follow_for: string | number };
}

const socket = (what: string): JsonSchema => ({ type: 'string', pattern: '^/', maxLength: 4096, description: `${what}'s API socket (an absolute path).` });

export const containersConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Containers (Host > Containers): Docker, Podman, nerdctl, LXD/Incus and Kubernetes, each asked through its API within a time limit.',
  properties: {
    sockets: {
      type: 'object', additionalProperties: false,
      description: 'API sockets where they are not at their usual places (Docker $DOCKER_HOST or /var/run/docker.sock; Podman $XDG_RUNTIME_DIR/podman/podman.sock or /run/podman/podman.sock; LXD /var/snap/lxd/common/lxd/unix.socket or /var/lib/lxd/unix.socket; Incus /var/lib/incus/unix.socket).',
      properties: { docker: socket('Docker'), podman: socket('Podman (its Docker-compatible service)'), lxd: socket('LXD'), incus: socket('Incus') },
    },
    kubeconfig: { type: 'string', minLength: 1, maxLength: 4096, description: 'The kubeconfig to read, relative to the config file; default $KUBECONFIG, else ~/.kube/config.' },
    kube_context: { type: 'string', minLength: 1, maxLength: 253, description: 'The kubeconfig context to use; default its current-context.' },
    nerdctl: { type: 'string', minLength: 1, maxLength: 4096, description: 'The nerdctl command (run with a time limit; it has no API socket); default `nerdctl` on PATH.' },
    timeout: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '100ms', formatMaximum: '60s', default: '3s',
      description: 'How long each environment has to answer; one that does not is listed as unreachable and never delays the others.',
    },
    action_timeout: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '1s', formatMaximum: '5m', default: '30s',
      description: 'How long a start, stop, restart or remove may take (a stop gives the container 10 s before SIGKILL).',
    },
    logs: {
      type: 'object', additionalProperties: false, default: {},
      description: 'Bounds of the log views.',
      properties: {
        tail: { type: 'integer', minimum: 1, maximum: 100000, default: 200, description: 'Lines from the end a log view shows when the request names none.' },
        max_tail: { type: 'integer', minimum: 1, maximum: 100000, default: 5000, description: 'The most lines a request may ask for.' },
        max_bytes: { type: 'integer', minimum: 1024, maximum: 67108864, default: 1048576, description: 'Bytes a log read returns at most, and a followed log sends at most before it ends.' },
        follow_for: {
          type: ['string', 'integer'], format: 'duration', formatMinimum: '1s', formatMaximum: '1h', default: '10m',
          description: 'How long a followed log stays open at most (it also ends when the browser leaves).',
        },
      },
    },
  },
};
