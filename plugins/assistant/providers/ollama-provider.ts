import { postForStream, textChunks } from './http-stream.js';
import { NdjsonParser } from './ndjson-parser.js';
import { ProviderFailure, type ChatMessage, type Provider } from './types.js';

interface OllamaChunk {
  message?: { content?: unknown };
  done?: unknown;
  error?: unknown;
}

/** A local model server speaking Ollama's API: `POST /api/chat`, streamed as newline-delimited JSON until `done`. */
export function ollamaProvider(baseUrl: string, model: string): Provider {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/chat`;
  return {
    endpoint: url,
    async *stream(messages: ChatMessage[], signal: AbortSignal) {
      const res = await postForStream(url, {}, { model, messages, stream: true }, signal);
      const parser = new NdjsonParser();
      for await (const text of textChunks(res)) {
        for (const value of parser.feed(text)) if (yield* contentOf(value as OllamaChunk)) return;
      }
      for (const value of parser.end()) if (yield* contentOf(value as OllamaChunk)) return;
    },
  };
}

/** Yields the chunk's text; true when it is the last one. */
function* contentOf(chunk: OllamaChunk): Generator<string, boolean> {
  if (chunk.error !== undefined) throw new ProviderFailure(`the provider failed mid-answer: ${String(chunk.error)}`);
  const content = chunk.message?.content;
  if (typeof content === 'string' && content) yield content;
  return chunk.done === true;
}
