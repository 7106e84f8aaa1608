import type { Exporter, ExporterDeps, ExportRecord } from './exporter.js';
import { ExportersConfigError } from './errors.js';

export interface WasmExporterOptions {
  name: string;
  /** Absolute path of the Extism module. */
  module: string;
  /** Name of the exporter receiving the transformed batch. */
  next: string;
  allowedHosts?: string[];
  /** Pushes the transformed records into the next exporter's queue; returns how many it accepted. */
  forward(records: ExportRecord[]): number;
}

/** Not available yet: it needs the WASM sandbox (sandbox/wasm). */
export function createWasmExporter(options: WasmExporterOptions, _deps: ExporterDeps): Exporter<ExportRecord> {
  throw new ExportersConfigError(`exporter ${options.name}: the wasm exporter type is not available in this build yet`);
}
