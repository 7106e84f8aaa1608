/**
 * A prompt as `getPrompt()` answers it, and how variables fill it. Variables are written `{{name}}` (spaces inside the
 * braces allowed), as Langfuse writes them; a variable not given is left as written, so a missing one shows in the
 * output instead of vanishing.
 */
import type { PromptTemplateRef } from './trace-item.js';

export type ChatMessage = { role: string; content: string };
export type ChatEntry = ChatMessage | { type: 'placeholder'; name: string };

/** What Vigil answers for a prompt version (`GET /api/v1/prompts/:name`), as the client keeps it. */
export interface PromptVersion {
  name: string;
  version: number;
  hash: string;
  type: 'text' | 'chat';
  text: string;
  messages: ChatEntry[] | null;
  labels: string[];
  config: unknown;
}

export interface VigilPrompt {
  readonly name: string;
  /** The version Vigil answered; null for a fallback. */
  readonly version: number | null;
  readonly type: 'text' | 'chat';
  /** The template text; a chat prompt's is its messages as JSON, as Vigil keeps it. */
  readonly text: string;
  readonly messages: ChatEntry[] | null;
  readonly labels: string[];
  readonly config: unknown;
  /** True when Vigil could not be asked and no copy was cached: this is the fallback the application gave. */
  readonly isFallback: boolean;
  /** The text (or, for chat, the messages) with `{{variables}}` filled in; placeholders take lists of messages. */
  compile(variables?: Record<string, unknown>, placeholders?: Record<string, ChatMessage[]>): string | ChatEntry[];
  /** The trace's `prompt_template`: traces that carry it are counted to this version (Vigil hashes the same text). */
  template(variables?: Record<string, unknown>): PromptTemplateRef;
}

const VARIABLE = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

function fill(text: string, variables: Record<string, unknown>): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(variables, name)) return whole;
    const value = variables[name];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** The prompt object for a version (or a fallback: `version` null). */
export function makePrompt(v: Omit<PromptVersion, 'version' | 'hash'> & { version: number | null }, isFallback: boolean): VigilPrompt {
  return Object.freeze({
    name: v.name,
    version: v.version,
    type: v.type,
    text: v.text,
    messages: v.messages,
    labels: v.labels,
    config: v.config,
    isFallback,
    compile(variables: Record<string, unknown> = {}, placeholders: Record<string, ChatMessage[]> = {}) {
      if (v.type !== 'chat' || !v.messages) return fill(v.text, variables);
      return v.messages.flatMap((m): ChatEntry[] => {
        if ('role' in m) return [{ role: m.role, content: fill(m.content, variables) }];
        return placeholders[m.name] ?? [m];
      });
    },
    template(variables?: Record<string, unknown>): PromptTemplateRef {
      return { name: v.name, raw: v.text, ...(variables ? { variables } : {}) };
    },
  });
}

/** A fallback given as text, or as chat messages, as a prompt. */
export function fallbackPrompt(name: string, fallback: string | ChatEntry[], label: string | undefined): VigilPrompt {
  const chat = Array.isArray(fallback);
  return makePrompt({
    name, version: null, type: chat ? 'chat' : 'text', text: chat ? JSON.stringify(fallback, null, 2) : fallback,
    messages: chat ? fallback : null, labels: label ? [label] : [], config: null,
  }, true);
}
