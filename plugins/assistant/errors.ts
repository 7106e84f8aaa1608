import { defineErrorCodes } from '@vigil/plugin-sdk';

/** Codes of the assistant (plugin `assistant`). */
export const AssistantErrors = defineErrorCodes('ASSISTANT', {
  NOT_CONFIGURED: {
    status: 409,
    meaning: 'No provider is set for the assistant yet.',
    action: 'An owner sets one in the assistant panel (Ctrl+I) or with `POST /api/llmconfig`.',
  },
  CONFIG_INVALID: {
    status: 400,
    meaning: 'The provider settings are not usable: a base URL that is not http(s), a missing model or command, or a key for a provider that takes none.',
    action: 'Fix what the message names and save again.',
  },
  BUSY: {
    status: 429,
    meaning: 'As many answers as `assistant.max_concurrent_turns` allows are streaming already.',
    action: 'Wait for one to end (or stop it), then ask again.',
  },
  CONTEXT_TOO_LARGE: {
    status: 413,
    meaning: 'The context items of one turn add up to more than `assistant.max_context_bytes`.',
    action: 'Remove a context item, or raise `assistant.max_context_bytes`.',
  },
  PROVIDER: {
    status: 502,
    meaning: 'The provider refused or failed the request (a wrong key, an unknown model, a server error), or gave no answer in time.',
    action: 'Read the provider\'s message; check the settings with `POST /api/llmtest`.',
  },
  SECRET_KEY: {
    status: 500,
    meaning: 'The key the provider API key is encrypted with is missing, unreadable, readable by others, or is not the key it was saved with.',
    action: 'Restore `<data_dir>/plugins/assistant/secrets.key` (mode 0600), or enter the API key again.',
  },
});
