/**
 * The bounds of trace trees (`llm.spans`, README "Trace trees"): spans kept per trace, bytes of user data per span,
 * and the hold for spans of traces with no LLM call yet (their time and their count per project).
 */
import { parseByteSize, parseDuration } from '@vigil/plugin-sdk';
import type { SpanParts } from './span-record.js';

export interface SpanBounds {
  /** Spans kept per trace; past it, other spans are dropped and counted on the trace. LLM calls are always kept. */
  maxPerTrace: number;
  /** UTF-8 bytes of a span's input, output, attributes and error as JSON; past it, the largest parts are left out. */
  maxBytes: number;
  /** How long spans of a trace without a stored LLM call are held, from the trace's first span. */
  holdMs: number;
  /** Spans held per project at most (traces without an LLM call); past it, new ones are dropped. */
  holdMaxSpans: number;
}

export const DEFAULT_SPAN_BOUNDS: Readonly<SpanBounds> = Object.freeze({
  maxPerTrace: 500,
  maxBytes: 16 * 1024,
  holdMs: 10 * 60_000,
  holdMaxSpans: 10_000,
});

/** The `llm.spans` config section, as written. */
export interface SpanBoundsConfig {
  max_per_trace?: number;
  max_bytes?: string | number;
  hold?: string | number;
  hold_max_spans?: number;
}

export function spanBoundsOf(config: SpanBoundsConfig | undefined): SpanBounds {
  const c = config ?? {};
  return {
    maxPerTrace: c.max_per_trace ?? DEFAULT_SPAN_BOUNDS.maxPerTrace,
    maxBytes: c.max_bytes === undefined ? DEFAULT_SPAN_BOUNDS.maxBytes : parseByteSize(c.max_bytes),
    holdMs: c.hold === undefined ? DEFAULT_SPAN_BOUNDS.holdMs : parseDuration(c.hold),
    holdMaxSpans: c.hold_max_spans ?? DEFAULT_SPAN_BOUNDS.holdMaxSpans,
  };
}

/** The schema of `llm.spans` (config-schema.ts takes it). */
export const spanBoundsSchema = {
  type: 'object', additionalProperties: false, default: {},
  description: 'Trace trees: every span of a trace with an LLM call is kept, within these bounds.',
  properties: {
    max_per_trace: { type: 'integer', minimum: 1, maximum: 100000, description: 'Spans kept per trace (LLM calls always are). Default 500.' },
    max_bytes: { type: ['string', 'integer'], format: 'byte-size', description: 'Bytes of one span\'s input, output, attributes and error; past it the largest are left out. Default 16kb.' },
    hold: { type: ['string', 'integer'], format: 'duration', formatMinimum: 0, description: 'How long spans of a trace with no LLM call yet wait for one. Default 10m.' },
    hold_max_spans: { type: 'integer', minimum: 0, maximum: 10000000, description: 'Spans waiting per project at most. Default 10,000.' },
  },
} as const;

const PART_NAMES = ['input', 'output', 'metadata', 'error'] as const;
type PartName = typeof PART_NAMES[number];

/** What of a span's parts was left out to fit: part → its bytes as JSON. */
export type Truncated = Partial<Record<PartName, number>>;

const bytesOf = (v: unknown): number => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8'));

/**
 * `parts` within `maxBytes`: the largest parts are left out until the rest fits, and named in `truncated` with their
 * size. Run before redaction (so redaction works on at most `maxBytes` per span) and again after it (a marker can be
 * longer than what it replaced). Changes `parts` in place.
 */
export function fitParts(parts: SpanParts, maxBytes: number, truncated: Truncated = {}): Truncated {
  const sizes = PART_NAMES.map((name) => ({ name, bytes: bytesOf(parts[name]) })).sort((a, b) => b.bytes - a.bytes);
  let total = sizes.reduce((n, s) => n + s.bytes, 0);
  for (const s of sizes) {
    if (total <= maxBytes) break;
    if (s.bytes === 0) continue;
    delete parts[s.name];
    truncated[s.name] = s.bytes;
    total -= s.bytes;
  }
  return truncated;
}
