// A trace's input or output read as a conversation, when it is one: OpenAI chat messages (content as text or parts,
// tool calls, tool results), a chat completion response (`choices`), the Responses API's items, Anthropic content
// blocks, Gemini `parts`, a request body with `messages`, or plain text. Anything else is null, and the page shows the
// JSON instead. Nothing is dropped: keys a message has beyond what the conversation shows are kept in `extra`, so a
// masked value there is still on screen.

export interface ToolCall {
  name: string;
  /** The arguments as sent: usually a JSON string. */
  arguments: string;
  id?: string;
}

export interface ChatMessage {
  role: string;
  /** The text, parts joined by blank lines; '' when the message is only tool calls. */
  text: string;
  name?: string;
  toolCalls: ToolCall[];
  /** For a tool's answer: the call it answers. */
  toolCallId?: string;
  /** Parts that are not text (images, audio, files), by their type. */
  attachments: string[];
  /** What else the message carried, shown beside it. */
  extra?: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys of a message this view shows itself. */
const SHOWN = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'function_call', 'parts', 'type', 'refusal', 'id', 'status']);

const stringify = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v, null, 2) ?? '');

/** The text of one content part, or its kind when it is not text; null when it is not a part. */
function partOf(part: unknown, message: ChatMessage): string | null {
  if (typeof part === 'string') return part;
  if (!isObject(part)) return null;
  const type = typeof part.type === 'string' ? part.type : undefined;
  if (typeof part.text === 'string' && (type === undefined || /text$/.test(type))) return part.text;
  if (type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
  if (type === 'tool_use' && typeof part.name === 'string') {
    message.toolCalls.push({ name: part.name, arguments: stringify(part.input ?? {}), id: typeof part.id === 'string' ? part.id : undefined });
    return '';
  }
  if (type === 'tool_result') {
    if (typeof part.tool_use_id === 'string') message.toolCallId = part.tool_use_id;
    return contentText(part.content, message) ?? stringify(part.content);
  }
  if (isObject(part.functionCall) && typeof part.functionCall.name === 'string') {
    message.toolCalls.push({ name: part.functionCall.name, arguments: stringify(part.functionCall.args ?? {}) });
    return '';
  }
  if (type) {
    message.attachments.push(type);
    return '';
  }
  return null;
}

/** Content as text: a string, or parts; null when it is neither. */
function contentText(content: unknown, message: ChatMessage): string | null {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const part of content) {
    const text = partOf(part, message);
    if (text === null) return null;
    if (text !== '') texts.push(text);
  }
  return texts.join('\n\n');
}

/** One message, or null when `value` is not one. */
function messageOf(value: unknown): ChatMessage | null {
  if (!isObject(value) || typeof value.role !== 'string') return null;
  if (value.type !== undefined && value.type !== 'message') return null;
  const message: ChatMessage = { role: value.role === 'model' ? 'assistant' : value.role, text: '', toolCalls: [], attachments: [] };
  const text = contentText(value.content ?? value.parts, message);
  if (text === null) return null;
  message.text = text;
  if (typeof value.refusal === 'string' && value.refusal) message.text = message.text ? `${message.text}\n\n${value.refusal}` : value.refusal;
  if (typeof value.name === 'string') message.name = value.name;
  if (typeof value.tool_call_id === 'string') message.toolCallId = value.tool_call_id;
  if (Array.isArray(value.tool_calls)) {
    for (const call of value.tool_calls) {
      const fn = isObject(call) && isObject(call.function) ? call.function : null;
      if (!fn || typeof fn.name !== 'string') return null;
      message.toolCalls.push({ name: fn.name, arguments: stringify(fn.arguments ?? ''), id: typeof call.id === 'string' ? (call.id as string) : undefined });
    }
  }
  if (isObject(value.function_call) && typeof value.function_call.name === 'string') {
    message.toolCalls.push({ name: value.function_call.name, arguments: stringify(value.function_call.arguments ?? '') });
  }
  const extra = Object.fromEntries(Object.entries(value).filter(([k, v]) => !SHOWN.has(k) && v !== null && v !== undefined));
  if (Object.keys(extra).length) message.extra = extra;
  return message;
}

/** A list of messages, or null unless every entry is one. */
function messagesOf(list: readonly unknown[]): ChatMessage[] | null {
  if (list.length === 0) return null;
  const out: ChatMessage[] = [];
  for (const item of list) {
    const m = messageOf(item);
    if (!m) return null;
    out.push(m);
  }
  return out;
}

/**
 * `value` as a conversation, or null when it is not one. A plain string is one message from `role` (`user` for an
 * input, `assistant` for an output).
 */
export function toConversation(value: unknown, role: 'user' | 'assistant'): ChatMessage[] | null {
  if (typeof value === 'string') return value === '' ? null : [{ role, text: value, toolCalls: [], attachments: [] }];
  if (Array.isArray(value)) return messagesOf(value);
  if (!isObject(value)) return null;
  const single = messageOf(value);
  if (single) return [single];
  // A request body ({ model, messages, … }) or an Anthropic one ({ system, messages }).
  if (Array.isArray(value.messages)) {
    const messages = messagesOf(value.messages);
    if (!messages) return null;
    return typeof value.system === 'string' && value.system ? [{ role: 'system', text: value.system, toolCalls: [], attachments: [] }, ...messages] : messages;
  }
  // A chat completion ({ choices: [{ message }] }) or a Responses API answer ({ output: [items] }).
  if (Array.isArray(value.choices)) return messagesOf(value.choices.map((c) => (isObject(c) ? c.message ?? c.delta : undefined)));
  if (Array.isArray(value.output)) return messagesOf(value.output);
  return null;
}

/** How many times the redaction marker appears in `value`, inside strings too (`card [REDACTED]`) and in keys' values. */
export function countMarkers(value: unknown, marker = '[REDACTED]'): number {
  if (typeof value === 'string') return value.split(marker).length - 1;
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + countMarkers(v, marker), 0);
  if (isObject(value)) return Object.values(value).reduce<number>((n, v) => n + countMarkers(v, marker), 0);
  return 0;
}

/** Tool call arguments pretty-printed when they are JSON, as they are otherwise. */
export function prettyArguments(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null ? JSON.stringify(parsed, null, 2) : args;
  } catch {
    return args;
  }
}
