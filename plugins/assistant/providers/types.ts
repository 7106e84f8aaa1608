/** A message of a chat turn as providers receive it (after redaction). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type ProviderKind = 'openai' | 'anthropic' | 'ollama' | 'cli';

/** The stored choice, with the key opened (for the provider only; never sent to the browser). */
export interface ProviderSettings {
  provider: ProviderKind;
  model: string | null;
  /** openai, anthropic, ollama: the API's base, e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434`. */
  base_url: string | null;
  /** cli: the argv, e.g. `["claude", "-p"]`. */
  command: string[] | null;
  api_key: string | null;
}

/**
 * One provider: streams the answer's text as it comes. It stops when `signal` aborts (the caller's timeouts, its cap,
 * the user's Stop), closing the upstream request or ending the command. A refusal or a broken stream throws a
 * `ProviderFailure` whose message is meant for the user.
 */
export interface Provider {
  /** Where requests go, for messages ("no answer from http://… in 20 s") and the audit. */
  readonly endpoint: string;
  stream(messages: ChatMessage[], signal: AbortSignal): AsyncGenerator<string>;
}

export class ProviderFailure extends Error {}
