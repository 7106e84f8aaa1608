/**
 * A trace's input or output as text, for the judge's prompt and for embeddings. Traces hold what the application
 * sent: OpenAI chat messages (one, or a list), content part lists, plain strings, or any JSON. Everything is kept:
 * the judge sees every message, not only the last one.
 */

const MAX_DEPTH = 32;

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (part && typeof part === 'object') {
    const p = part as Record<string, unknown>;
    if (typeof p.text === 'string') return p.text;
    if (p.type === 'image_url' || p.type === 'input_image' || p.type === 'image') return '[image]';
    if (p.type === 'input_audio' || p.type === 'audio') return '[audio]';
  }
  return JSON.stringify(part);
}

/** A message's `content`: a string, or a list of parts (text kept, images and audio marked). */
function contentText(content: unknown): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(partText).filter((t) => t !== '').join('\n');
  return JSON.stringify(content);
}

const isMessage = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>).role === 'string'
  && ('content' in (v as object) || 'tool_calls' in (v as object));

function toolCalls(calls: unknown): string[] {
  if (!Array.isArray(calls)) return [];
  return calls.map((c) => {
    const fn = (c as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
    return fn ? `called ${String(fn.name)}(${typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {})})` : JSON.stringify(c);
  });
}

function render(value: unknown, roles: boolean, depth: number): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || depth > MAX_DEPTH) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map((v) => render(v, roles, depth + 1)).filter((t) => t !== '').join('\n\n');
  if (isMessage(value)) {
    const text = [contentText(value.content), ...toolCalls(value.tool_calls)].filter((t) => t !== '').join('\n');
    return roles ? `${String(value.role)}: ${text}` : text;
  }
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.messages)) return render(o.messages, roles, depth + 1);
  if (Array.isArray(o.choices)) return render(o.choices.map((c) => (c as { message?: unknown } | null)?.message ?? c), roles, depth + 1);
  if ('content' in o && Object.keys(o).length <= 2) return contentText(o.content);
  return JSON.stringify(value, null, 2);
}

/** The conversation as `role: text` lines: what the judge reads. */
export function conversationText(value: unknown): string {
  return render(value, true, 0);
}

/** The text alone, without roles: what is embedded and compared with golden outputs. */
export function plainText(value: unknown): string {
  return render(value, false, 0);
}

/**
 * Whether a trace's output has any text: a failed call has none (null), and neither has an empty answer. Tool calls
 * count as output.
 */
export function hasOutput(output: unknown): boolean {
  return plainText(output).trim() !== '';
}
