import { ProviderFailure, type ChatMessage, type Provider } from './providers/types.js';

export interface TurnLimits {
  firstTokenMs: number;
  totalMs: number;
  maxAnswerBytes: number;
}

/** How a turn ended: `done` (the provider finished), `cut` (a limit; `message` says which), `cancelled`, `failed`. */
export interface TurnOutcome {
  outcome: 'done' | 'cut' | 'cancelled' | 'failed';
  message: string | null;
  answer: string;
  bytes: number;
}

type Stop = 'first_token' | 'total' | 'cap' | 'cancelled';

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * Streams one answer through `emit`, bounded three ways: the first token within `firstTokenMs` (connecting
 * included), the whole answer within `totalMs`, at most `maxAnswerBytes` of text. Whichever comes first, or
 * `cancel` (the browser went away, the user pressed Stop), aborts the upstream request, and the turn ends with an
 * outcome that says why. It never throws.
 */
export async function runTurn(provider: Provider, messages: ChatMessage[], limits: TurnLimits, cancel: AbortSignal, emit: (text: string) => void): Promise<TurnOutcome> {
  const upstream = new AbortController();
  let stopped: Stop | null = null;
  const stop = (why: Stop) => {
    if (stopped) return;
    stopped = why;
    upstream.abort();
  };
  const onCancel = () => stop('cancelled');
  cancel.addEventListener('abort', onCancel, { once: true });
  if (cancel.aborted) stop('cancelled');
  const firstToken = setTimeout(() => stop('first_token'), limits.firstTokenMs);
  const total = setTimeout(() => stop('total'), limits.totalMs);
  let answer = '';
  let bytes = 0;
  let failure: string | null = null;
  try {
    if (!stopped) {
      for await (const text of provider.stream(messages, upstream.signal)) {
        clearTimeout(firstToken);
        const size = Buffer.byteLength(text);
        const part = bytes + size > limits.maxAnswerBytes ? cutToBytes(text, limits.maxAnswerBytes - bytes) : text;
        if (part) {
          emit(part);
          answer += part;
          bytes += Buffer.byteLength(part);
        }
        if (part !== text) {
          stop('cap');
          break;
        }
        if (stopped) break;
      }
    }
  } catch (err) {
    if (!stopped) failure = err instanceof ProviderFailure ? err.message : `${provider.endpoint} failed: ${(err as Error).message}`;
  } finally {
    clearTimeout(firstToken);
    clearTimeout(total);
    cancel.removeEventListener('abort', onCancel);
    upstream.abort();
  }
  const why = stopped as Stop | null;
  if (failure) return { outcome: 'failed', message: failure, answer, bytes };
  if (why === 'cancelled') return { outcome: 'cancelled', message: 'stopped before the answer ended', answer, bytes };
  if (why === 'first_token') return { outcome: 'failed', message: `no answer from ${provider.endpoint} in ${seconds(limits.firstTokenMs)}`, answer, bytes };
  if (why === 'total') return { outcome: 'cut', message: `the answer took longer than ${seconds(limits.totalMs)} and was cut there`, answer, bytes };
  if (why === 'cap') return { outcome: 'cut', message: `the answer passed ${limits.maxAnswerBytes} bytes and was cut there`, answer, bytes };
  return { outcome: 'done', message: null, answer, bytes };
}

/** The longest prefix of `text` within `max` UTF-8 bytes, never splitting a character. */
export function cutToBytes(text: string, max: number): string {
  if (max <= 0) return '';
  const buf = Buffer.from(text);
  if (buf.length <= max) return text;
  let end = max;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}
