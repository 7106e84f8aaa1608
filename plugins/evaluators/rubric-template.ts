import { conversationText } from './trace-text.js';

/** `{{input}}`, `{{output}}`, `{{expected}}` and `{{metadata.a.b}}`, spaces inside the braces allowed. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*\}\}/g;
const KNOWN = new Set(['input', 'output', 'expected']);

/** The placeholders a rubric uses that render() cannot fill; an empty list when it is fine. */
export function unknownPlaceholders(rubric: string): string[] {
  const out: string[] = [];
  for (const m of rubric.matchAll(PLACEHOLDER)) {
    const name = m[1];
    if (!KNOWN.has(name) && !name.startsWith('metadata.') && name !== 'metadata') out.push(name);
  }
  return out;
}

function pathValue(value: unknown, path: string[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

const asText = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** What a trace gives the rubric. */
export interface RubricValues {
  input: unknown;
  output: unknown;
  /** The expected answer: the trace's `metadata.expected`, else the template's golden outputs (judge.ts). */
  expected: string;
  metadata: unknown;
}

/**
 * The rubric with the trace filled in: the whole input and output as `role: text` lines (every message), the
 * expected answer, and metadata values by path (objects as JSON; a missing one is empty). A rubric that names
 * neither {{input}} nor {{output}} gets both appended, so the judge always sees the trace.
 */
export function renderRubric(rubric: string, values: RubricValues): string {
  let usesTrace = false;
  const text = rubric.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === 'input') { usesTrace = true; return conversationText(values.input); }
    if (name === 'output') { usesTrace = true; return conversationText(values.output); }
    if (name === 'expected') return values.expected;
    if (name === 'metadata') return asText(values.metadata);
    if (name.startsWith('metadata.')) return asText(pathValue(values.metadata, name.split('.').slice(1)));
    return whole;
  });
  if (usesTrace) return text;
  return `${text}\n\n<input>\n${conversationText(values.input)}\n</input>\n\n<output>\n${conversationText(values.output)}\n</output>`;
}
