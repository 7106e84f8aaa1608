import { httpFailure, type ReceiverErrorCodes } from '@vigil/plugin-sdk';
import { request } from 'undici';
import { ChannelsErrors, receiverUnavailable, settingsError } from '../errors.js';
import type { SendContext } from './send-context.js';

/** The codes the SDK's `httpFailure` gives a channel's receiver errors. */
const channelReceiverCodes: ReceiverErrorCodes = { rejected: ChannelsErrors.REJECTED, unavailable: ChannelsErrors.UNAVAILABLE };

/** Bytes of an answer kept: enough for Slack's error word, Discord's JSON and ntfy's, never a whole page. */
const ANSWER_BYTES = 4096;

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The first ANSWER_BYTES of the body, as text. */
  text: string;
}

/** The channel's URL, parsed; a URL that does not parse, or is not http(s), fails the delivery at once. */
export function targetUrl(url: string | undefined, what: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url ?? '');
  } catch {
    throw settingsError(`${what}: the URL does not parse`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw settingsError(`${what}: the URL must be http or https, not ${parsed.protocol}`);
  return parsed;
}

/**
 * POSTs `body` and reads the start of the answer. Throws a retryable error when the receiver cannot be reached or
 * does not answer within the deadline. `what` names the channel in messages; the URL never appears in them (it is
 * a secret).
 */
export async function post(url: URL, body: string | Buffer, headers: Record<string, string>, what: string, context: SendContext): Promise<HttpAnswer> {
  const signal = AbortSignal.timeout(context.timeoutMs);
  try {
    const response = await request(url, { method: 'POST', body, headers, signal, dispatcher: context.dispatcher });
    return { status: response.statusCode, headers: response.headers, text: await readStart(response.body) };
  } catch (err) {
    const reason = signal.aborted ? `no answer within ${context.timeoutMs} ms` : describeNetworkError(err);
    throw receiverUnavailable(`${what} unreachable: ${reason}`);
  }
}

/** Throws the error a non-2xx answer stands for (permanent for 4xx other than 408/429, retryable otherwise). */
export function failUnlessOk(answer: HttpAnswer, what: string, retryAfterMs?: number): void {
  if (answer.status >= 200 && answer.status < 300) return;
  const detail = answer.text.replace(/\s+/g, ' ').trim().slice(0, 300);
  throw httpFailure(what, answer.status, { codes: channelReceiverCodes, retryAfter: answer.headers['retry-after'], ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), ...(detail ? { detail } : {}) });
}

async function readStart(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= ANSWER_BYTES) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(parts).subarray(0, ANSWER_BYTES).toString('utf8');
}

/** The network error's code and message, without the URL undici may put in it. */
function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? e.code;
  const message = (e.cause?.message ?? e.message ?? 'unknown error').replace(/https?:\/\/\S+/g, '<url>');
  return code ? `${code}: ${message}` : message;
}
