import { definePlugin } from '@vigil/plugin-sdk';
import { exportersConfigSchema, type ExporterConfig } from './config-schema.js';
import { checkExportersConfig } from './check-config.js';

/**
 * Exporters of governed records (file, webhook, otlp, exec, wasm). The config is the top-level list `exporters:`;
 * each item gets its own delivery queue fed from the bus. Exporters only ever see exportable (governed) topics.
 */
export default definePlugin<ExporterConfig[]>({
  name: 'exporters',
  version: '0.1.0',
  configSchema: exportersConfigSchema,
  needs: [],
  checkConfig: (config, check) => checkExportersConfig(config ?? [], check),
  // The exporter implementations (OpenTelemetry among them) load only when the config enables the plugin.
  async setup(ctx, config) {
    const { createExportPipeline } = await import('./pipeline.js');
    return createExportPipeline(ctx, config ?? []);
  },
});
