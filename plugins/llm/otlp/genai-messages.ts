/**
 * Messages of an LLM span, from whichever convention carried them, as ChatMessage lists (chat-message.ts). Each
 * reader returns undefined when its convention is absent, so the caller takes the first present, in this order (the
 * mapping table of otlp/README.md, row input / output):
 *   1. `gen_ai.input.messages` / `gen_ai.output.messages` (+ `gen_ai.system_instructions`): JSON in the parts format
 *   2. legacy flattened `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` (Traceloop ≤ 0.22 and many others)
 *   3. OpenInference `llm.input_messages.N.message.*` / `llm.output_messages.N.message.*`
 *   4. Vercel AI SDK `ai.prompt.messages` / `ai.response.text` (+ `ai.response.toolCalls`, `ai.response.object`)
 *   5. span events `gen_ai.content.prompt` / `gen_ai.content.completion` (attributes `gen_ai.prompt` /
 *      `gen_ai.completion`), the older convention some SDKs still emit
 * @opentelemetry/instrumentation-openai writes content to the Logs API, not to the span: genai-log-events.ts reads it.
 */
import { firstString, jsonAttribute, parseJsonText } from './attribute-values.js';
import { contentOf, message, toolCall, type ChatMessage, type ToolCall } from './chat-message.js';
import type { OtlpAttributes, OtlpEvent, OtlpValue } from './otlp-model.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

// 1. Semantic conventions ≥ 1.37: [{ role, parts: [{ type, … }], finish_reason? }].

function fromPartsMessage(m: Obj): ChatMessage[] {
  const role = str(m.role) ?? 'user';
  const parts = Array.isArray(m.parts) ? m.parts : [];
  const content: unknown[] = [];
  const calls: ToolCall[] = [];
  const toolResults: ChatMessage[] = [];
  const reasoning: string[] = [];
  for (const p of parts) {
    if (!isObj(p)) continue;
    switch (p.type) {
      case 'text': content.push({ type: 'text', text: str(p.content) ?? '' }); break;
      case 'reasoning': reasoning.push(str(p.content) ?? ''); break;
      case 'tool_call': calls.push(toolCall(p.id, p.name, p.arguments)); break;
      case 'tool_call_response':
        toolResults.push(message({ role: 'tool', tool_call_id: str(p.id), content: typeof p.response === 'string' ? p.response : JSON.stringify(p.response ?? null) }));
        break;
      default: content.push(p);
    }
  }
  if (toolResults.length > 0 && content.length === 0 && calls.length === 0) return toolResults;
  const out = message({
    role, name: str(m.name), content: content.length > 0 ? contentOf(content) : calls.length > 0 ? null : '',
    tool_calls: calls, finish_reason: str(m.finish_reason), reasoning: reasoning.join('') || undefined,
  });
  return [out, ...toolResults];
}

function partsMessages(v: OtlpValue | undefined): ChatMessage[] | undefined {
  const list = jsonAttribute(v);
  if (!Array.isArray(list)) return undefined;
  return list.filter(isObj).flatMap((m) => (Array.isArray(m.parts) ? fromPartsMessage(m) : [message({ role: str(m.role) ?? 'user', content: m.content as string })]));
}

export function semconvMessages(attrs: OtlpAttributes): { input?: ChatMessage[]; output?: ChatMessage[] } {
  let input = partsMessages(attrs['gen_ai.input.messages']);
  const system = jsonAttribute(attrs['gen_ai.system_instructions']);
  if (system !== undefined) {
    const parts = Array.isArray(system) ? system.map((p) => (isObj(p) && p.type === 'text' ? { type: 'text', text: str(p.content) ?? '' } : p)) : [system];
    input = [message({ role: 'system', content: contentOf(parts) }), ...(input ?? [])];
  }
  return { input, output: partsMessages(attrs['gen_ai.output.messages']) };
}

// 2 and 3. Flattened attributes: `<prefix>.<N>.<rest>`, grouped by N in numeric order.

function groupIndexed(attrs: OtlpAttributes, prefix: string): Map<number, Obj> | undefined {
  let groups: Map<number, Obj> | undefined;
  const p = `${prefix}.`;
  for (const key of Object.keys(attrs)) {
    if (!key.startsWith(p)) continue;
    const dot = key.indexOf('.', p.length);
    const index = Number(key.slice(p.length, dot < 0 ? undefined : dot));
    if (dot < 0 || !Number.isInteger(index) || index < 0) continue;
    groups ??= new Map();
    let g = groups.get(index);
    if (!g) groups.set(index, (g = Object.create(null) as Obj));
    g[key.slice(dot + 1)] = attrs[key];
  }
  return groups && new Map([...groups].sort((a, b) => a[0] - b[0]));
}

/** `tool_calls.M.<field>` (legacy) or `tool_calls.M.tool_call.<field>` (OpenInference) into ToolCalls. */
function flattenedToolCalls(fields: Obj, prefix: string, inner: string): ToolCall[] {
  const byIndex = groupIndexed(fields as OtlpAttributes, prefix);
  if (!byIndex) return [];
  return [...byIndex.values()].map((f) => toolCall(f[`${inner}id`], f[`${inner}name`] ?? f[`${inner}function.name`], f[`${inner}arguments`] ?? f[`${inner}function.arguments`]));
}

/** Content written as text, or as a JSON list of parts (Traceloop stringifies multimodal content). */
function flattenedContent(v: unknown): string | unknown[] | undefined {
  if (typeof v !== 'string') return undefined;
  const parsed = parseJsonText(v);
  return Array.isArray(parsed) ? contentOf(parsed) : v;
}

function legacyMessages(attrs: OtlpAttributes, prefix: string): ChatMessage[] | undefined {
  const groups = groupIndexed(attrs, prefix);
  if (!groups) return undefined;
  return [...groups.values()].map((f) => {
    const calls = flattenedToolCalls(f, 'tool_calls', '');
    if (calls.length === 0 && typeof f['function_call.name'] === 'string') calls.push(toolCall(undefined, f['function_call.name'], f['function_call.arguments']));
    return message({
      role: str(f.role) ?? 'user', content: flattenedContent(f.content) ?? (calls.length > 0 ? null : undefined),
      tool_calls: calls, tool_call_id: str(f.tool_call_id), finish_reason: str(f.finish_reason),
    });
  });
}

export function legacyGenAiMessages(attrs: OtlpAttributes): { input?: ChatMessage[]; output?: ChatMessage[] } {
  return { input: legacyMessages(attrs, 'gen_ai.prompt'), output: legacyMessages(attrs, 'gen_ai.completion') };
}

function openInferenceList(attrs: OtlpAttributes, prefix: string): ChatMessage[] | undefined {
  const groups = groupIndexed(attrs, prefix);
  if (!groups) return undefined;
  return [...groups.values()].map((f) => {
    let content: string | unknown[] | undefined = str(f['message.content']);
    const parts = groupIndexed(f as OtlpAttributes, 'message.contents');
    if (content === undefined && parts) {
      content = contentOf([...parts.values()].map((c) => (c['message_content.type'] === 'image'
        ? { type: 'image_url', image_url: { url: str(c['message_content.image.image.url']) ?? '' } }
        : { type: 'text', text: str(c['message_content.text']) ?? '' })));
    }
    const calls = flattenedToolCalls(f, 'message.tool_calls', 'tool_call.');
    return message({
      role: str(f['message.role']) ?? 'user', name: str(f['message.name']),
      content: content ?? (calls.length > 0 ? null : undefined), tool_calls: calls, tool_call_id: str(f['message.tool_call_id']),
    });
  });
}

export function openInferenceMessages(attrs: OtlpAttributes): { input?: ChatMessage[]; output?: ChatMessage[] } {
  const output = openInferenceList(attrs, 'llm.output_messages');
  const finish = str(attrs['llm.finish_reason']);
  if (output && output.length === 1 && finish && !output[0].finish_reason) output[0].finish_reason = finish;
  return { input: openInferenceList(attrs, 'llm.input_messages'), output };
}

/** Embedding inputs: OpenInference's `embedding.embeddings.N.embedding.text`, Vercel's `ai.values` / `ai.value`. */
export function embeddingInputs(attrs: OtlpAttributes): string[] | undefined {
  const groups = groupIndexed(attrs, 'embedding.embeddings');
  if (groups) {
    const texts = [...groups.values()].map((g) => str(g['embedding.text'])).filter((t): t is string => t !== undefined);
    if (texts.length > 0) return texts;
  }
  const values = attrs['ai.values'] ?? (attrs['ai.value'] !== undefined ? [attrs['ai.value']] : undefined);
  if (Array.isArray(values)) {
    // Vercel writes each value JSON-encoded ("\"Paris\"").
    return values.map((v) => {
      if (typeof v !== 'string') return JSON.stringify(v);
      try { const parsed: unknown = JSON.parse(v); return typeof parsed === 'string' ? parsed : v; } catch { return v; }
    });
  }
  return undefined;
}

// 4. Vercel AI SDK: ai.prompt.messages is the provider-level prompt, in the SDK's own message format.

function vercelMessage(m: Obj): ChatMessage[] {
  const role = str(m.role) ?? 'user';
  if (!Array.isArray(m.content)) return [message({ role, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? null) })];
  const content: unknown[] = [];
  const calls: ToolCall[] = [];
  const results: ChatMessage[] = [];
  const reasoning: string[] = [];
  for (const p of m.content) {
    if (!isObj(p)) continue;
    if (p.type === 'text') content.push({ type: 'text', text: str(p.text) ?? '' });
    else if (p.type === 'reasoning') reasoning.push(str(p.text) ?? '');
    else if (p.type === 'tool-call') calls.push(toolCall(p.toolCallId, p.toolName, p.input ?? p.args));
    else if (p.type === 'tool-result') {
      const out = p.output ?? p.result;
      results.push(message({ role: 'tool', tool_call_id: str(p.toolCallId), content: typeof out === 'string' ? out : JSON.stringify(out ?? null) }));
    } else content.push(p);
  }
  if (results.length > 0 && content.length === 0 && calls.length === 0) return results;
  return [message({ role, content: content.length > 0 ? contentOf(content) : calls.length > 0 ? null : '', tool_calls: calls, reasoning: reasoning.join('') || undefined }), ...results];
}

export function vercelMessages(attrs: OtlpAttributes): { input?: ChatMessage[]; output?: ChatMessage[] } {
  const prompt = jsonAttribute(attrs['ai.prompt.messages']);
  const input = Array.isArray(prompt) ? prompt.filter(isObj).flatMap(vercelMessage) : undefined;
  const text = str(attrs['ai.response.text']);
  const object = firstString(attrs, ['ai.response.object']);
  const calls = jsonAttribute(attrs['ai.response.toolCalls']);
  const toolCalls = Array.isArray(calls) ? calls.filter(isObj).map((c) => toolCall(c.toolCallId, c.toolName, c.input ?? c.args)) : [];
  let output: ChatMessage[] | undefined;
  if (text !== undefined || object !== undefined || toolCalls.length > 0) {
    output = [message({
      role: 'assistant', content: text ?? object ?? null, tool_calls: toolCalls,
      finish_reason: str(attrs['ai.response.finishReason']),
    })];
  }
  return { input, output };
}

// 5. Span events of the older content convention.

export function eventMessages(events: OtlpEvent[]): { input?: ChatMessage[]; output?: ChatMessage[] } {
  let input: ChatMessage[] | undefined;
  let output: ChatMessage[] | undefined;
  const asMessages = (v: OtlpValue, role: string): ChatMessage[] => {
    const parsed = jsonAttribute(v);
    if (Array.isArray(parsed)) return parsed.filter(isObj).map((m) => message({ role: str(m.role) ?? role, content: (m.content as string) ?? null }));
    return [message({ role, content: typeof parsed === 'string' ? parsed : JSON.stringify(parsed ?? null) })];
  };
  for (const e of events) {
    if (e.name === 'gen_ai.content.prompt' && e.attributes['gen_ai.prompt'] !== undefined) input = asMessages(e.attributes['gen_ai.prompt'], 'user');
    else if (e.name === 'gen_ai.content.completion' && e.attributes['gen_ai.completion'] !== undefined) output = asMessages(e.attributes['gen_ai.completion'], 'assistant');
  }
  return { input, output };
}
