// A streamed answer from `POST /api/ai` or `POST /api/health`: server-sent events in a fetch body (EventSource
// cannot POST). Aborting `signal` closes the request, and the server aborts its request to the provider.
import { errorFromResponse, networkError } from '../../data/api-error.js';
import type { AssistantProposal, AssistantStreamEvent } from '../../data/api.gen.js';

export type Proposal = AssistantProposal;
export type StreamEvent = AssistantStreamEvent;

export async function streamAnswer(path: string, body: unknown, signal: AbortSignal, onEvent: (e: StreamEvent) => void): Promise<void> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST', credentials: 'same-origin', signal,
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw networkError('the assistant');
  }
  if (!res.ok || !res.body) {
    let parsed: unknown;
    try { parsed = await res.json(); } catch { parsed = undefined; }
    throw errorFromResponse(res.status, parsed, 'the assistant');
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    pending += value;
    let end: number;
    // The server writes `event: x\ndata: {json}\n\n` frames (plugins/assistant/event-stream.ts), so this reads just that.
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const frame = pending.slice(0, end);
      pending = pending.slice(end + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (event && data) onEvent({ event, data: JSON.parse(data) } as StreamEvent);
    }
  }
}
