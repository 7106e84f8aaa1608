import type { PluginContext } from '@vigil/plugin-sdk';
import { parseByteSize } from '@vigil/plugin-sdk';
import type { ExporterConfig } from './config-schema.js';
import type { Exporter, ExportRecord } from './exporter.js';
import { ExportersConfigError } from './errors.js';
import { commandProblem, isCommandPath } from './check-config.js';
import { createFileExporter, FILE_DEFAULTS } from './file-exporter.js';
import { createWebhookExporter } from './webhook-exporter.js';
import { createOtlpExporter } from './otlp-exporter.js';
import { createExecExporter } from './exec-exporter.js';
import { createWasmExporter } from './wasm-exporter.js';

export interface BuildContext {
  ctx: PluginContext;
  /** Where this exporter sits in the config, for messages: `exporters[2]`. */
  where: string;
  /** The per-attempt timeout of its queue; the OTLP exporter's own request timeout matches it. */
  attemptTimeoutMs: number;
  /** Hands records to another exporter's queue (the wasm type's `next`); returns how many it accepted. */
  forward(exporter: string, records: ExportRecord[]): number;
  /** Counts a failed WASM guest call by reason. */
  sandboxFailure(reason: string): void;
}

/** The exporter for one `exporters:` item, with paths resolved against the config file. */
export async function buildExporter(config: ExporterConfig, b: BuildContext): Promise<Exporter<ExportRecord>> {
  const { ctx } = b;
  const deps = { log: ctx.log.child({ exporter: config.name }) };
  switch (config.type) {
    case 'file':
      return createFileExporter({
        name: config.name,
        path: ctx.resolvePath(config.path),
        maxBytes: config.max_bytes === undefined ? FILE_DEFAULTS.maxBytes : parseByteSize(config.max_bytes),
        maxFiles: config.max_files,
      }, deps);
    case 'webhook':
      return createWebhookExporter({ name: config.name, url: config.url, secret: config.secret, headers: config.headers }, deps);
    case 'otlp':
      return createOtlpExporter({
        name: config.name,
        endpoint: config.endpoint,
        protocol: config.protocol,
        headers: config.headers,
        serviceName: config.service_name,
        resourceAttributes: config.resource_attributes,
        timeoutMs: b.attemptTimeoutMs,
        version: ctx.runtime.version,
      }, deps);
    case 'exec':
      return createExecExporter({
        name: config.name,
        command: resolveCommand(ctx, config.command, `${b.where}.command`),
        args: config.args,
        ack: config.ack,
        stopGraceMs: 2_000,
      }, deps);
    case 'wasm':
      return createWasmExporter({
        name: config.name,
        module: ctx.resolvePath(config.module),
        next: config.next,
        allowedHosts: config.allowed_hosts,
        forward: (records) => b.forward(config.next, records),
        onFailure: b.sandboxFailure,
      }, deps).catch((err: unknown) => {
        throw new ExportersConfigError(`${b.where}.module: ${(err as Error).message}`);
      });
  }
}

/**
 * A command with a slash is a path from the config file and must be executable now (checkConfig saw it too, but the
 * file may have changed since); a bare name is left to PATH.
 */
function resolveCommand(ctx: PluginContext, command: string, where: string): string {
  if (!isCommandPath(command)) return command;
  const path = ctx.resolvePath(command);
  const problem = commandProblem(path);
  if (problem !== undefined) throw new ExportersConfigError(`${where}: ${problem}`);
  return path;
}
