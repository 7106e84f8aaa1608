import { postForStream, textChunks } from './http-stream.js';
import { SseParser } from './sse-parser.js';
import { ProviderFailure, type ChatMessage, type Provider } from './types.js';

interface ChunkShape {
  choices?: { delta?: { content?: unknown } }[];
  error?: { message?: unknown } | string;
}

/**
 * Any OpenAI-compatible server (OpenAI, vLLM, llama.cpp's server, LM Studio, OpenRouter…): Chat Completions with
 * `stream: true`, read as server-sent events until `data: [DONE]`. An `error` object in the stream ends the answer
 * with the provider's message.
 */
export function openAiProvider(baseUrl: string, model: string, apiKey: string | null): Provider {
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    endpoint: url,
    async *stream(messages: ChatMessage[], signal: AbortSignal) {
      const res = await postForStream(url, apiKey ? { authorization: `Bearer ${apiKey}` } : {}, { model, messages, stream: true }, signal);
      const parser = new SseParser();
      for await (const text of textChunks(res)) {
        for (const ev of parser.feed(text)) {
          if (ev.data === '[DONE]') return;
          yield* deltasOf(ev.data);
        }
      }
    },
  };
}

/** The text in one `data:` payload of a Chat Completions stream. */
export function* deltasOf(data: string): Generator<string> {
  let chunk: ChunkShape;
  try {
    chunk = JSON.parse(data) as ChunkShape;
  } catch {
    throw new ProviderFailure(`the stream sent an event that is not JSON: ${data.slice(0, 120)}`);
  }
  if (chunk.error) throw new ProviderFailure(`the provider failed mid-answer: ${typeof chunk.error === 'string' ? chunk.error : String(chunk.error.message ?? 'no message')}`);
  const content = chunk.choices?.[0]?.delta?.content;
  if (typeof content === 'string' && content) yield content;
}
