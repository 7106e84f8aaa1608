import { join } from 'node:path';
import { parseDuration, SecretBox, type PluginContext, type PluginInstance, type SecretBoxOwner } from '@vigil/plugin-sdk';
import type { AssistantConfig } from './config-schema.js';
import { AssistantErrors } from './errors.js';
import { assistantMigrations } from './migrations.js';
import { registerAssistantRoutes } from './routes.js';
import { SettingsStore } from './settings-store.js';
import { TurnSlots } from './turn-slots.js';

const OWNER: SecretBoxOwner = { plugin: 'assistant', code: AssistantErrors.SECRET_KEY, valueOf: 'the API key of the provider' };

export async function startAssistant(ctx: PluginContext, config: AssistantConfig): Promise<PluginInstance> {
  await ctx.store.migrate(assistantMigrations);
  const keyFile = config.key_file ? ctx.resolvePath(config.key_file) : join(ctx.dataDir, 'secrets.key');
  const stopping = new AbortController();
  registerAssistantRoutes(ctx.http, {
    stopping: stopping.signal,
    settings: new SettingsStore(ctx.store, SecretBox.opener(keyFile, OWNER)),
    slots: new TurnSlots(config.max_concurrent_turns),
    limits: {
      firstTokenMs: parseDuration(config.first_token_timeout), totalMs: parseDuration(config.total_timeout),
      maxAnswerBytes: config.max_answer_bytes, maxContextBytes: config.max_context_bytes,
    },
    redact: config.redact,
  });
  return { start: () => undefined, stop: () => stopping.abort() };
}
