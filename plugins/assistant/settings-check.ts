import { httpError } from '@vigil/plugin-sdk';
import { AssistantErrors } from './errors.js';
import type { SettingsInput } from './settings-store.js';

/** Where each HTTP provider is reached when the settings name no base URL. */
export const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com', ollama: 'http://127.0.0.1:11434' } as const;

const invalid = (message: string) => httpError(AssistantErrors.CONFIG_INVALID, message);

/** The settings to save, defaults filled in, or a 400 that names what is wrong. */
export function checkedSettings(b: SettingsInput): SettingsInput {
  if (b.provider === 'cli') {
    if (!b.command) throw invalid('a local command provider needs `command`, e.g. ["claude", "-p"] or ["llm"]');
    if (b.base_url || b.api_key) throw invalid('a local command provider takes `command` (and a `model` label) only, not base_url or api_key');
    return { provider: 'cli', command: b.command, ...(b.model ? { model: b.model } : {}), api_key: null };
  }
  if (b.command) throw invalid(`the ${b.provider} provider takes base_url, model and api_key, not \`command\``);
  if (!b.model) throw invalid(`the ${b.provider} provider needs \`model\`, e.g. ${b.provider === 'ollama' ? 'llama3.2' : b.provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o-mini'}`);
  if (b.provider === 'ollama' && b.api_key) throw invalid('an Ollama server takes no API key');
  const base = b.base_url ?? DEFAULT_BASE_URL[b.provider];
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw invalid(`base_url "${base}" is not a URL; write it like https://api.openai.com/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`base_url must be http or https, not ${url.protocol}`);
  if (url.username || url.password) throw invalid('base_url must not hold a user or password: put the key in api_key, where it is stored encrypted');
  if (url.search || url.hash) throw invalid('base_url must not hold a query or fragment');
  return { ...b, base_url: url.href.replace(/\/+$/, '') };
}
