// What the containers routes answer with; the UI's types are generated from these. The stated maxItems are the
// answers' bounds, which the engines enforce (MAX_CONTAINERS_PER_ENGINE per environment, MAX_PODS per cluster).
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { CONTAINER_ACTIONS, ENGINE_KINDS, MAX_CONTAINERS_PER_ENGINE, MAX_PODS } from './types.js';

const text: JsonSchema = { type: 'string' };
const seconds: JsonSchema = { type: ['integer', 'null'], description: 'Epoch seconds; null when the engine does not say.' };
const kind: JsonSchema = { enum: [...ENGINE_KINDS] };

const environment = closedObject({
  kind,
  endpoint: { type: 'string', description: 'The socket, the kubeconfig context and server, or the command it was reached through.' },
  state: { enum: ['ok', 'unreachable', 'error'], description: 'unreachable: no answer within containers.timeout, or the socket refused; error: the engine answered with an error.' },
  message: { type: ['string', 'null'], description: 'Why it is unreachable or failed, e.g. "no answer in 3 s".' },
  elapsed_ms: { type: 'integer', minimum: 0 },
  containers: { type: 'integer', minimum: 0 },
  pods: { type: 'integer', minimum: 0 },
  cut: { type: 'boolean', description: 'More rows than the bound: the newest are listed.' },
  shell: { type: ['string', 'null'], description: 'What a terminal tab types before a container\'s id and `sh` for a shell inside it (the engine\'s CLI exec); null: no shell (pods).' },
  follow: { type: 'boolean', description: 'Whether its logs can be followed live.' },
}, { title: 'ContainerEnvironment' });

export const containerRow = closedObject({
  env: kind, id: text, name: text, image: text,
  state: { type: 'string', description: 'The engine\'s state, lower case: running, exited, created, paused, stopped…' },
  status: { type: 'string', description: 'The engine\'s own line, e.g. "Up 3 hours".' },
  created: seconds,
  ports: { type: 'array', items: text, description: 'Published ports, 0.0.0.0:8080->80/tcp.' },
  running: { type: 'boolean' },
}, { title: 'ContainerRow' });

const podRow = closedObject({
  env: { enum: ['kubernetes'] }, namespace: text, name: text,
  ready: { type: 'integer', minimum: 0 }, total: { type: 'integer', minimum: 0 }, restarts: { type: 'integer', minimum: 0 },
  node: { type: ['string', 'null'] }, phase: text, created: seconds, containers: { type: 'array', items: text },
}, { title: 'PodRow' });

export const containersList = closedObject({
  environments: { type: 'array', maxItems: ENGINE_KINDS.length, items: environment, description: 'Every environment found, each with its own outcome.' },
  containers: { type: 'array', maxItems: MAX_CONTAINERS_PER_ENGINE * 5, items: containerRow },
  pods: { type: 'array', maxItems: MAX_PODS, items: podRow },
  looked_for: {
    type: 'array', items: closedObject({ kind, places: { type: 'array', items: text } }, { title: 'ContainerPlaces' }),
    description: 'Where each environment is looked for, so an empty page can say what it looked for.',
  },
  timeout_ms: { type: 'integer', description: 'Each environment\'s time to answer (containers.timeout).' },
}, { title: 'ContainersList' });

export const logsQuery: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['env', 'id'],
  properties: {
    env: { type: 'string', enum: [...ENGINE_KINDS] },
    id: { type: 'string', minLength: 1, maxLength: 512, description: 'A container id or name; for a pod, namespace/name.' },
    tail: { type: 'integer', minimum: 1, maximum: 100000, description: 'Lines from the end (default containers.logs.tail, at most containers.logs.max_tail).' },
    container: { type: 'string', minLength: 1, maxLength: 253, description: 'A pod\'s container (default its first).' },
  },
} as JsonSchema;

export const logsAnswer = closedObject({
  env: kind, id: text,
  text: { type: 'string', description: 'The output, stdout and stderr interleaved as the engine keeps them.' },
  tail: { type: 'integer', description: 'Lines asked for from the end.' },
  cut: { type: 'boolean', description: 'The output passed containers.logs.max_bytes and was cut there.' },
  max_bytes: { type: 'integer' },
}, { title: 'ContainerLogs' });

export const actionInput = closedObject({
  env: kind,
  id: { type: 'string', minLength: 1, maxLength: 128 },
  action: { enum: [...CONTAINER_ACTIONS] },
  force: { type: 'boolean', description: 'remove only: a running container is killed first. Without it a running container is refused (409).' },
}, { title: 'ContainerActionInput', optional: ['force'] });

export const actionAnswer = closedObject({
  env: kind, id: text, action: { enum: [...CONTAINER_ACTIONS] },
  container: { oneOf: [containerRow, { type: 'null' }], description: 'The container as the engine lists it after the action; null once removed.' },
}, { title: 'ContainerActionResult' });

export const pgContainers = closedObject({
  containers: {
    type: 'array', maxItems: MAX_CONTAINERS_PER_ENGINE * 5,
    items: closedObject({
      env: kind, id: text, name: text, image: text, running: { type: 'boolean' },
      port: { type: ['integer', 'null'], description: 'The host port published for 5432, if any.' },
      host: { type: ['string', 'null'], description: 'The host address it is published on (127.0.0.1 for 0.0.0.0).' },
    }, { title: 'PgContainer' }),
  },
}, { title: 'PgContainers' });
