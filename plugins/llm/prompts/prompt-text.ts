import { httpError } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';

/**
 * Characters of a created prompt's text (a chat prompt: its messages as JSON text). The project's detectors run over
 * it on the event loop (prompt-registry.ts), and their worst text (thousands of card numbers) costs about 1 ms per
 * 1,000 characters: this keeps a create well inside the 50 ms budget. Detected templates are redacted in the lane's
 * threads and keep their larger bound.
 */
export const MAX_PROMPT_CHARS = 32_768;
/** Characters of a version's config as JSON. */
export const MAX_CONFIG_CHARS = 65_536;

export type PromptType = 'text' | 'chat';

/** A chat prompt's entry: a message, or a placeholder an application fills with a list of messages (Langfuse's). */
export type ChatEntry = { role: string; content: string } | { type: 'placeholder'; name: string };

/**
 * What a create sends, read into the one text a version is: a text prompt as written; a chat prompt as its messages
 * in JSON, two-space indented, one key per line, so its versions hash, diff and show like text. Only `role` and
 * `content` of a message (and `name` of a placeholder) are kept: they are what reaches the model.
 */
export function promptText(type: PromptType, prompt: unknown): { text: string; entries: ChatEntry[] | null } {
  if (type === 'text') {
    if (typeof prompt !== 'string') throw httpError(LlmErrors.PROMPT_INVALID, '`prompt` of a text prompt must be a string');
    return checked({ text: prompt, entries: null });
  }
  if (!Array.isArray(prompt) || prompt.length === 0) throw httpError(LlmErrors.PROMPT_INVALID, '`prompt` of a chat prompt must be a non-empty array of { role, content } messages');
  const entries = prompt.map((m, i): ChatEntry => {
    const o = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
    if (o.type === 'placeholder') {
      if (typeof o.name !== 'string' || o.name === '') throw httpError(LlmErrors.PROMPT_INVALID, `prompt[${i}]: a placeholder needs a name`);
      return { type: 'placeholder', name: o.name };
    }
    if (typeof o.role !== 'string' || o.role === '' || typeof o.content !== 'string') {
      throw httpError(LlmErrors.PROMPT_INVALID, `prompt[${i}]: a chat message needs a role and a string content`);
    }
    return { role: o.role, content: o.content };
  });
  return checked({ text: chatText(entries), entries });
}

/** A chat prompt's entries as the text its version keeps. */
export const chatText = (entries: ChatEntry[]): string => JSON.stringify(entries, null, 2);

/** A kept chat text read back into entries; null when the text is not (or no longer, after redaction) such a list. */
export function chatEntries(text: string): ChatEntry[] | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed as ChatEntry[] : null;
  } catch {
    return null;
  }
}

/** A version's config: any JSON value, bounded; undefined when none was sent. */
export function configText(config: unknown): string | null {
  if (config === undefined || config === null) return null;
  const text = JSON.stringify(config);
  if (text.length > MAX_CONFIG_CHARS) throw httpError(LlmErrors.PROMPT_TOO_LARGE, `the config is ${text.length.toLocaleString('en-US')} characters of JSON; the bound is ${MAX_CONFIG_CHARS.toLocaleString('en-US')}`);
  return text;
}

function checked<T extends { text: string }>(p: T): T {
  if (p.text.includes('\u0000')) throw httpError(LlmErrors.PROMPT_INVALID, 'the prompt holds a NUL character');
  if (p.text.length > MAX_PROMPT_CHARS) {
    throw httpError(LlmErrors.PROMPT_TOO_LARGE, `the prompt is ${p.text.length.toLocaleString('en-US')} characters; the bound is ${MAX_PROMPT_CHARS.toLocaleString('en-US')}`);
  }
  return p;
}

/** 400 unless `name` can name a template (the ingest's bound). */
export function checkTemplateName(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0 || name.length > 256 || name.includes('\u0000')) {
    throw httpError(LlmErrors.PROMPT_INVALID, 'a prompt name must be 1-256 characters (no NUL)');
  }
  return name;
}
