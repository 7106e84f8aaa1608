import { join } from 'node:path';
import { parseDuration, SecretBox, type PluginContext, type PluginInstance, type SecretBoxOwner } from '@vigil/plugin-sdk';
import type { ApiClientConfig } from './config-schema.js';
import { ApiClientErrors } from './errors.js';
import { HttpStore } from './http-store.js';
import { TASK_URL, type ApiClientTask, type ApiClientTaskResult } from './import-task.js';
import { apiClientMigrations } from './migrations.js';
import { registerApiClientRoutes } from './routes.js';

const OWNER: SecretBoxOwner = { plugin: 'apiclient', code: ApiClientErrors.SECRET_KEY, valueOf: 'the secret variable' };

export async function startApiClient(ctx: PluginContext, config: ApiClientConfig): Promise<PluginInstance> {
  await ctx.store.migrate(apiClientMigrations);
  const keyFile = config.key_file ? ctx.resolvePath(config.key_file) : join(ctx.dataDir, 'secrets.key');
  const store = new HttpStore(ctx.store, SecretBox.opener(keyFile, OWNER));
  const maxTimeout = parseDuration(config.max_timeout);
  // Imports and large bodies: one thread is enough for one user's clicks; memory bounded as the input is the user's.
  const pool = ctx.workers.pool<ApiClientTask, ApiClientTaskResult>({
    filename: TASK_URL, name: 'apiclient', minThreads: 0, maxThreads: 1, maxQueue: 16, resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  registerApiClientRoutes(ctx.http, {
    store, pool,
    limits: {
      timeout_ms: Math.min(parseDuration(config.timeout), maxTimeout), max_timeout_ms: maxTimeout,
      max_response_bytes: config.max_response_bytes, display_bytes: Math.min(config.display_bytes, config.max_response_bytes),
    },
    audit: (entry) => ctx.http.audit(entry),
  });
  return { start: () => undefined, stop: () => undefined };
}
