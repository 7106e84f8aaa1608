/**
 * The one message shape the OTLP and Langfuse mappings store, whatever convention the span used: OpenAI's chat
 * format, the lingua franca of LLM tooling. A trace item's `input` is the array of messages sent; its `output` is
 * the array of messages received (one per choice). `content` is a string when every part is text, otherwise the
 * list of parts (text parts as `{ type: 'text', text }`, others as the convention wrote them).
 */
export interface ToolCall {
  id?: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: string;
  content?: string | unknown[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  /** On a `tool` message: the call it answers. */
  tool_call_id?: string;
  /** On an output message. */
  finish_reason?: string;
  /** Reasoning text, when the convention separates it from the answer. */
  reasoning?: string;
}

/** Tool-call arguments as JSON text (conventions carry them as text or as objects). */
export const argumentsText = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

export function toolCall(id: unknown, name: unknown, args: unknown): ToolCall {
  return {
    ...(typeof id === 'string' && id !== '' ? { id } : {}),
    type: 'function',
    function: { name: typeof name === 'string' ? name : '', arguments: argumentsText(args) },
  };
}

/** Parts reduced to one string when all are text; otherwise kept as a list. */
export function contentOf(parts: unknown[]): string | unknown[] {
  const texts: string[] = [];
  for (const p of parts) {
    if (typeof p === 'string') texts.push(p);
    else if (p && typeof p === 'object' && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string') texts.push((p as { text: string }).text);
    else return parts;
  }
  return texts.join('');
}

/** A message without the fields that came out empty. */
export function message(fields: ChatMessage): ChatMessage {
  const out: ChatMessage = { role: fields.role || 'user' };
  if (fields.content !== undefined) out.content = fields.content;
  if (fields.name) out.name = fields.name;
  if (fields.tool_calls && fields.tool_calls.length > 0) out.tool_calls = fields.tool_calls;
  if (fields.tool_call_id) out.tool_call_id = fields.tool_call_id;
  if (fields.finish_reason) out.finish_reason = fields.finish_reason;
  if (fields.reasoning) out.reasoning = fields.reasoning;
  return out;
}
