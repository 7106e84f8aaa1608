import { defineErrorCodes } from '@vigil/plugin-sdk';

/** Codes of the containers panel (plugin `containers`). */
export const ContainersErrors = defineErrorCodes('CONTAINERS', {
  ENGINE_UNKNOWN: {
    status: 404,
    meaning: 'The environment named (`env`) is not one found on this machine: its socket, kubeconfig or command is missing.',
    action: 'List what was found with `GET /api/containers`; set `containers.sockets`, `containers.kubeconfig` or `containers.nerdctl` if an engine lives elsewhere.',
  },
  CONTAINER_UNKNOWN: {
    status: 404,
    meaning: 'The engine has no container (or pod) with that id or name.',
    action: 'Reload the list: it may have been removed meanwhile.',
  },
  NOT_SUPPORTED: {
    status: 400,
    meaning: 'That environment does not offer this: Kubernetes pods are read-only here (logs only), and following a log is offered for Docker, Podman and Kubernetes.',
    action: 'Use the cluster\'s own tools (kubectl) to change pods.',
  },
  RUNNING: {
    status: 409,
    meaning: 'A running container is not removed unless the request says `force: true` (it is stopped with SIGKILL, then removed).',
    action: 'Stop it first, or confirm a forced removal.',
  },
  UNREACHABLE: {
    status: 504,
    meaning: 'The environment did not answer within `containers.timeout` (or `containers.action_timeout` for an action), or its socket refused the connection.',
    action: 'Check the daemon runs (`systemctl status docker`, `podman system service`) and that Vigil\'s user may use its socket; for a cluster, that its API server is up.',
  },
  ENGINE_FAILED: {
    status: 502,
    meaning: 'The engine answered with an error of its own; the message is the engine\'s.',
    action: 'Do as the engine\'s message says.',
  },
});
