import { ProviderFailure } from './types.js';

/** Bytes of an error answer read for its message. */
const ERROR_BODY_BYTES = 4096;

/**
 * POSTs `body` as JSON to `url` and returns the response once it is a 2xx; a refusal throws a ProviderFailure with
 * the provider's own message (`error.message` in OpenAI's, Anthropic's and Ollama's error shapes). `signal` aborts
 * the request at any point, closing its socket.
 */
export async function postForStream(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal, redirect: 'error' });
  } catch (err) {
    if (signal.aborted) throw err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ProviderFailure(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (res.ok && res.body) return res;
  const text = await readSome(res, signal);
  throw new ProviderFailure(`${url} answered ${res.status}${messageOf(text) ? `: ${messageOf(text)}` : ''}`);
}

/** The answer's body as text, chunk by chunk as it arrives (UTF-8 sequences cut between chunks are joined). */
export async function* textChunks(res: Response): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
    const text = decoder.decode(bytes, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

async function readSome(res: Response, signal: AbortSignal): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_BODY_BYTES && !signal.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.length;
    }
  } catch { /* the message is best effort */ } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(parts).subarray(0, ERROR_BODY_BYTES).toString('utf8');
}

/** The human part of a provider's error body: `{error:{message}}`, `{error:"…"}`, `{message}`, or the text itself. */
export function messageOf(text: string): string {
  try {
    const v = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof v.error === 'string' ? v.error : typeof v.error?.message === 'string' ? v.error.message : typeof v.message === 'string' ? v.message : '';
    if (m) return m.slice(0, 300);
  } catch { /* not JSON */ }
  return text.trim().slice(0, 300);
}
