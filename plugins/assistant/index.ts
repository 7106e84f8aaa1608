import { definePlugin } from '@vigil/plugin-sdk';
import { assistantConfigSchema, type AssistantConfig } from './config-schema.js';

/**
 * The assistant: a chat panel backed by one provider the owner picks (an OpenAI-compatible endpoint, Anthropic's API,
 * an Ollama server, or a local command), answers streamed to the browser. The page offers context (health findings,
 * log lines) the user sees and can remove; secrets are masked before anything leaves the host. It never acts: an
 * action it proposes is a card that opens the page where the user does it.
 */
export default definePlugin<AssistantConfig>({
  name: 'assistant',
  version: '0.1.0',
  configSchema: assistantConfigSchema,
  needs: ['http', 'store'],
  async setup(ctx, config) {
    const { startAssistant } = await import('./start-assistant.js');
    return startAssistant(ctx, config);
  },
});
