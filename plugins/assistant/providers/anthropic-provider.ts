import { postForStream, textChunks } from './http-stream.js';
import { SseParser } from './sse-parser.js';
import { ProviderFailure, type ChatMessage, type Provider } from './types.js';

/** Tokens an answer may use: Anthropic's API requires a cap; `assistant.max_answer_bytes` cuts the text itself. */
const MAX_TOKENS = 4096;

/**
 * Anthropic's Messages API with `stream: true`: server-sent events, text in `content_block_delta` events, the end at
 * `message_stop`, failures as `error` events. The system prompt goes in its own field.
 */
export function anthropicProvider(baseUrl: string, model: string, apiKey: string | null): Provider {
  const url = `${baseUrl.replace(/\/+$/, '')}/v1/messages`;
  return {
    endpoint: url,
    async *stream(messages: ChatMessage[], signal: AbortSignal) {
      const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
      const body = { model, max_tokens: MAX_TOKENS, stream: true, system, messages: messages.filter((m) => m.role !== 'system') };
      const res = await postForStream(url, { 'x-api-key': apiKey ?? '', 'anthropic-version': '2023-06-01' }, body, signal);
      const parser = new SseParser();
      for await (const text of textChunks(res)) {
        for (const ev of parser.feed(text)) {
          if (ev.event === 'message_stop') return;
          if (ev.event === 'error') throw new ProviderFailure(`the provider failed mid-answer: ${messageIn(ev.data)}`);
          if (ev.event !== 'content_block_delta') continue;
          const delta = parse(ev.data) as { delta?: { text?: unknown } };
          if (typeof delta.delta?.text === 'string' && delta.delta.text) yield delta.delta.text;
        }
      }
    },
  };
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new ProviderFailure(`the stream sent an event that is not JSON: ${data.slice(0, 120)}`);
  }
}

function messageIn(data: string): string {
  const v = parse(data) as { error?: { message?: unknown } };
  return typeof v.error?.message === 'string' ? v.error.message : 'no message';
}
