import type { Exporter, ExporterDeps, ExportRecord } from './exporter.js';
import { RotatingFile } from './rotating-file.js';
import { jsonLine } from './json-lines.js';
import { ExporterClosedError } from './errors.js';

export interface FileExporterOptions {
  name: string;
  /** Absolute path of the live file. */
  path: string;
  /** Default 100 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxFiles?: number;
}

export const FILE_DEFAULTS = { maxBytes: 100 * 1024 * 1024, maxFiles: 5 };

/** JSON Lines, each record's text on a line, rotated by size and count; shutdown waits for the last write and fsyncs. */
export function createFileExporter(options: FileExporterOptions, deps: ExporterDeps): Exporter<ExportRecord> {
  const file = new RotatingFile({
    path: options.path,
    maxBytes: options.maxBytes ?? FILE_DEFAULTS.maxBytes,
    maxFiles: options.maxFiles ?? FILE_DEFAULTS.maxFiles,
    log: deps.log,
  });
  let closed = false;
  return {
    async send(batch, signal) {
      if (closed) throw new ExporterClosedError(options.name);
      await file.append(batch.map(jsonLine), signal);
    },
    async shutdown() {
      closed = true;
      await file.close();
    },
  };
}
