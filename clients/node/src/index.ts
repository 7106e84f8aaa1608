/** @vigil/llm-client: send LLM call traces to Vigil. See README.md for usage, options and guarantees. */
export { createClient, type ClientStats, type VigilClient } from './client.js';
export type { ClientOptions } from './options.js';
export type { GetPromptOptions } from './prompt-fetcher.js';
export type { ChatEntry, ChatMessage, VigilPrompt } from './prompt-text.js';
export type { TraceAttributes, TraceInput } from './normalise-item.js';
export type { PromptTemplateRef, TraceItem, TraceTokens } from './trace-item.js';
export { ClientErrors, VigilClientError, type ClientErrorCode } from './errors.js';
