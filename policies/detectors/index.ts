import { REDACTED } from '../compile-json-path.js';
import type { Detection, DetectorKind, Detectors } from './types.js';
import { findCardNumbers } from './card-number.js';
import { findIbans } from './iban.js';
import { findPatternSecrets } from './secret-patterns.js';

export { cardIssuer, luhnValid, CARD_ISSUERS } from './card-number.js';
export { ibanChecksumValid } from './iban.js';

/** Sensitive-looking spans in `value`, sorted by start; where two overlap, the earlier (then longer) one wins. */
export function detect(value: string): Detection[] {
  if (typeof value !== 'string' || value.length === 0) return [];
  const all: Detection[] = [
    ...findPatternSecrets(value),
    ...findCardNumbers(value).map((s) => ({ kind: 'card_number' as const, ...s })),
    ...findIbans(value).map((s) => ({ kind: 'iban' as const, ...s })),
  ];
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Detection[] = [];
  let reach = -1;
  for (const d of all) {
    if (d.start < reach) continue;
    out.push(d);
    reach = d.end;
  }
  return out;
}

const MASK = '*';
const SAMPLE_MAX = 120;

/** How a detected secret is shown: enough to recognise its kind, never enough to use it. */
function maskSpan(kind: DetectorKind, text: string): string {
  switch (kind) {
    case 'card_number': {
      // Last four digits, as on a receipt; separators kept so the grouping stays recognisable.
      let digitsLeft = text.replace(/[^0-9]/g, '').length;
      return text.replace(/[0-9]/g, (d) => (digitsLeft-- <= 4 ? d : MASK));
    }
    case 'email': {
      const at = text.indexOf('@');
      return `${text[0]}${MASK.repeat(3)}${text.slice(at)}`;
    }
    case 'us_ssn':
      return text.replace(/[0-9]/g, MASK);
    case 'private_key':
      return `${text.slice(0, text.indexOf('-----', 5) + 5)}${MASK.repeat(8)}`;
    case 'jwt':
      return `eyJ${MASK.repeat(6)}.${MASK.repeat(6)}.${MASK.repeat(6)}`;
    case 'iban':
      return text.slice(0, 2) + text.slice(2).replace(/[A-Za-z0-9]/g, MASK);
    default:
      // Key prefixes (`AKIA`, `sk_l`, `ghp_`) tell the kind; the rest is masked at a fixed width (no length leak).
      return text.slice(0, Math.min(4, Math.floor(text.length / 4))) + MASK.repeat(8);
  }
}

/**
 * A display form of `value` for findings and reports: every detected span masked; with nothing detected, the
 * whole value masked (it was called sensitive for another reason, such as its field name). Long values are cut.
 */
export function maskSample(value: string): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  const spans = detect(text);
  if (spans.length === 0) return MASK.repeat(Math.min(Math.max(text.length, 1), 8));
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + maskSpan(s.kind, text.slice(s.start, s.end));
    at = s.end;
  }
  out += text.slice(at);
  return out.length > SAMPLE_MAX ? `${out.slice(0, SAMPLE_MAX)}…` : out;
}

/** The kinds as a set, made once per list (rules keep theirs): redaction asks for it once per string. */
const kindSets = new WeakMap<readonly DetectorKind[], ReadonlySet<DetectorKind>>();
function kindSet(kinds: readonly DetectorKind[]): ReadonlySet<DetectorKind> {
  let set = kindSets.get(kinds);
  if (!set) kindSets.set(kinds, (set = new Set(kinds)));
  return set;
}

/** `text` with detected spans of `kinds` (default: every kind) replaced by the marker. */
export function redactText(text: string, kinds?: readonly DetectorKind[]): string {
  const wanted = kinds ? kindSet(kinds) : null;
  let out = '';
  let at = 0;
  for (const s of detect(text)) {
    if (wanted && !wanted.has(s.kind)) continue;
    out += text.slice(at, s.start) + REDACTED;
    at = s.end;
  }
  return out + text.slice(at);
}

export const detectors: Detectors = { detect, maskSample, redactText };

export { findNationalIds, dniValid, bsnValid, type NationalIdKind } from './national-id.js';
