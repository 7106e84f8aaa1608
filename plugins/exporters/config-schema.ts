import type { JsonSchema } from '@vigil/plugin-sdk';

/**
 * Topics an exporter may subscribe to. Only governed topics belong here: a raw exchange ('gateway.exchange') holds
 * unredacted bodies and headers and must never leave the process, so the schema refuses it by construction.
 */
export const EXPORTABLE_TOPICS = ['gateway.record'] as const;
export type ExportableTopic = (typeof EXPORTABLE_TOPICS)[number];

export const EXPORTER_TYPES = ['file', 'webhook', 'otlp', 'exec', 'wasm'] as const;
export type ExporterType = (typeof EXPORTER_TYPES)[number];

/** A duration: a number of milliseconds or a string like `500ms`, `2s`, `1m`. */
export type DurationValue = number | string;
/** A size: a number of bytes or a string like `64kb`, `100mb` (1kb = 1024). */
export type ByteSizeValue = number | string;

export interface QueueConfig {
  queue_size?: number;
  batch_size?: number;
  batch_timeout?: DurationValue;
  timeout?: DurationValue;
  max_attempts?: number;
}

interface CommonConfig extends QueueConfig {
  name: string;
  topics?: ExportableTopic[];
}

export interface FileExporterConfig extends CommonConfig {
  type: 'file';
  path: string;
  max_bytes?: ByteSizeValue;
  max_files?: number;
}

export interface WebhookExporterConfig extends CommonConfig {
  type: 'webhook';
  url: string;
  secret?: string;
  headers?: Record<string, string>;
}

export interface OtlpExporterConfig extends CommonConfig {
  type: 'otlp';
  endpoint: string;
  protocol?: 'http/json' | 'http/protobuf';
  headers?: Record<string, string>;
  service_name?: string;
  resource_attributes?: Record<string, string | number | boolean>;
}

export interface ExecExporterConfig extends CommonConfig {
  type: 'exec';
  command: string;
  args?: string[];
  ack?: boolean;
}

export interface WasmExporterConfig extends CommonConfig {
  type: 'wasm';
  module: string;
  next: string;
  allowed_hosts?: string[];
}

export type ExporterConfig =
  | FileExporterConfig | WebhookExporterConfig | OtlpExporterConfig | ExecExporterConfig | WasmExporterConfig;

const duration: JsonSchema = { type: ['string', 'integer'], format: 'duration', minimum: 0 };
const stringMap: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
const httpUrl: JsonSchema = { type: 'string', format: 'uri', pattern: '^https?://' };

/**
 * The keys each type adds to the common ones, and which of them it requires. No defaults here: the validator fills
 * defaults into every item whatever its type, which would put a file's `max_bytes` on a webhook. The code applies them.
 */
const typeKeys: Record<ExporterType, { properties: Record<string, JsonSchema>; required: string[] }> = {
  file: {
    properties: {
      path: { type: 'string', minLength: 1, description: 'JSON Lines file; relative to the config file.' },
      max_bytes: { type: ['string', 'integer'], format: 'byte-size', formatMinimum: 1, description: 'Rotate when the file would grow past this. Default 100mb.' },
      max_files: { type: 'integer', minimum: 0, description: 'Rotated files kept (records.1.jsonl …). Default 5.' },
    },
    required: ['path'],
  },
  webhook: {
    properties: {
      url: httpUrl,
      secret: { type: 'string', minLength: 1, description: 'Signs each request: X-Vigil-Signature: sha256=<hex HMAC of "<X-Vigil-Timestamp>.<body>">.' },
      headers: stringMap,
    },
    required: ['url'],
  },
  otlp: {
    properties: {
      endpoint: { ...httpUrl, description: 'Collector base URL (…:4318); /v1/logs is appended unless present.' },
      protocol: { enum: ['http/json', 'http/protobuf'], description: 'Default http/protobuf.' },
      headers: stringMap,
      service_name: { type: 'string', minLength: 1, description: 'Resource attribute service.name. Default vigil.' },
      resource_attributes: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
    },
    required: ['endpoint'],
  },
  exec: {
    properties: {
      command: { type: 'string', minLength: 1, description: 'Executable; a path with a slash is relative to the config file, a bare name is looked up in PATH.' },
      args: { type: 'array', items: { type: 'string' } },
      ack: { type: 'boolean', description: 'Wait for one stdout line per record before a batch counts as delivered. Default false.' },
    },
    required: ['command'],
  },
  wasm: {
    properties: {
      module: { type: 'string', minLength: 1, description: 'Extism module exporting `transform`; relative to the config file.' },
      next: { type: 'string', minLength: 1, description: 'Name of the exporter that receives the transformed batch.' },
      allowed_hosts: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Hosts the module may reach over HTTP. Default none.' },
    },
    required: ['module', 'next'],
  },
};

const allTypeKeys = Object.fromEntries(Object.values(typeKeys).flatMap((t) => Object.entries(t.properties)));

/**
 * One branch per type: its required keys, and every other type's keys forbidden (`false`), so a `url` on a file
 * exporter is an error at that key instead of being ignored. The `if`/`then` parts say `additionalProperties: true`
 * because the item itself already lists every key; only the item is strict about unknown ones.
 */
function typeBranch(type: ExporterType): JsonSchema {
  const own = new Set(Object.keys(typeKeys[type].properties));
  const foreign = Object.keys(allTypeKeys).filter((k) => !own.has(k));
  return {
    if: { properties: { type: { const: type } }, required: ['type'], additionalProperties: true },
    then: {
      required: typeKeys[type].required,
      properties: Object.fromEntries(foreign.map((k) => [k, false])),
      additionalProperties: true,
    },
  };
}

/** The `exporters:` section: a list of exporters. */
export const exportersConfigSchema: JsonSchema = {
  type: 'array',
  description: 'Exporters of governed records: file, webhook, otlp, exec, wasm.',
  items: {
    type: 'object',
    required: ['name', 'type'],
    properties: {
      name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$', maxLength: 64, description: 'Unique; names the exporter in metrics.' },
      type: { enum: [...EXPORTER_TYPES] },
      topics: { type: 'array', items: { enum: [...EXPORTABLE_TOPICS] }, minItems: 1, uniqueItems: true, default: ['gateway.record'] },
      queue_size: { type: 'integer', minimum: 1, description: 'Records held before new ones are dropped. Default 10000.' },
      batch_size: { type: 'integer', minimum: 1, description: 'Records per batch. Default 512.' },
      batch_timeout: { ...duration, description: 'Longest a record waits for its batch to fill. Default 1s.' },
      timeout: { ...duration, description: 'Per-attempt timeout. Default 10s.' },
      max_attempts: { type: 'integer', minimum: 1, description: 'Attempts per batch. Default: retry while the queue holds it.' },
      ...allTypeKeys,
    },
    allOf: EXPORTER_TYPES.map(typeBranch),
  },
};
