// A server-sent-events client for tests: reads a real `text/event-stream` response and parses its frames.

export interface SseFrame {
  /** `message` when the frame named no event; `comment` for a line starting with ':'. */
  event: string;
  data: string;
}

export interface SseConnection {
  readonly status: number;
  readonly headers: Headers;
  /** Every frame so far, in order. */
  readonly frames: SseFrame[];
  /** The next frame (after those already read by earlier calls) that `match` accepts; rejects after `timeoutMs`. */
  next(match?: (frame: SseFrame) => boolean, timeoutMs?: number): Promise<SseFrame>;
  /** Resolves when the server ended the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

/** Parses complete frames out of `buffer`; returns them and what is left over. */
export function parseFrames(buffer: string): { frames: SseFrame[]; rest: string } {
  const frames: SseFrame[] = [];
  let at: number;
  while ((at = buffer.indexOf('\n\n')) !== -1) {
    const block = buffer.slice(0, at);
    buffer = buffer.slice(at + 2);
    let event = 'message';
    const data: string[] = [];
    const comments: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) { comments.push(line.slice(1).trim()); continue; }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry') { event = 'retry'; data.push(value); }
    }
    // A block of comments only is a frame of its own (a heartbeat); comments beside fields are not data.
    if (data.length === 0 && event === 'message') frames.push({ event: 'comment', data: comments.join('\n') });
    else frames.push({ event, data: data.join('\n') });
  }
  return { frames, rest: buffer };
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal, redirect: 'manual' });
  const frames: SseFrame[] = [];
  const waiters: (() => void)[] = [];
  let read = 0;
  let endedResolve!: () => void;
  const ended = new Promise<void>((r) => { endedResolve = r; });
  if (res.body && res.headers.get('content-type')?.startsWith('text/event-stream')) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          const parsed = parseFrames(buffer + decoder.decode(chunk, { stream: true }));
          buffer = parsed.rest;
          frames.push(...parsed.frames);
          for (const w of waiters.splice(0)) w();
        }
      } catch { /* aborted */ }
      endedResolve();
      for (const w of waiters.splice(0)) w();
    })();
  } else {
    await res.arrayBuffer().catch(() => {});
    endedResolve();
  }
  let done = false;
  void ended.then(() => { done = true; });
  return {
    status: res.status,
    headers: res.headers,
    frames,
    ended,
    async next(match = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (read < frames.length) {
          const f = frames[read++];
          if (match(f)) return f;
        }
        if (done) throw new Error(`the stream ended; frames: ${JSON.stringify(frames)}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms; frames: ${JSON.stringify(frames)}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => { clearTimeout(t); resolve(); });
        });
      }
    },
    close: () => controller.abort(),
  };
}
