import { anthropicProvider } from './anthropic-provider.js';
import { cliProvider } from './cli-provider.js';
import { ollamaProvider } from './ollama-provider.js';
import { openAiProvider } from './openai-provider.js';
import type { Provider, ProviderSettings } from './types.js';

/** The provider the stored settings describe (they were checked when saved). */
export function makeProvider(s: ProviderSettings): Provider {
  switch (s.provider) {
    case 'openai': return openAiProvider(s.base_url!, s.model!, s.api_key);
    case 'anthropic': return anthropicProvider(s.base_url!, s.model!, s.api_key);
    case 'ollama': return ollamaProvider(s.base_url!, s.model!);
    case 'cli': return cliProvider(s.command!);
  }
}
