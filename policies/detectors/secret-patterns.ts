import type { DetectorKind } from './types.js';

/** A detector built from a pattern; `group` selects the secret inside the match (e.g. the token after "Bearer"). */
export interface PatternDetector {
  kind: DetectorKind;
  pattern: RegExp;
  group?: number;
  /** Extra check on the matched secret. */
  accept?(secret: string): boolean;
  /**
   * A necessary condition of any match, far cheaper than the pattern (a literal search): text failing it is never
   * scanned. Most strings of a trace (prose, ids, padding) contain no `@`, no `eyJ`, no key prefix.
   */
  hint(text: string): boolean;
}

/** Whether `text` contains any of `literals`. */
const anyOf = (...literals: string[]) => (text: string): boolean => literals.some((l) => text.includes(l));

// Every quantifier over a broad class is bounded: detectors run over whole bodies, and an unbounded class followed
// by a required literal would make the scan quadratic on long inputs that lack the literal.
export const PATTERN_DETECTORS: readonly PatternDetector[] = [
  {
    kind: 'private_key',
    pattern: /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----|$)/g,
    hint: anyOf('-----BEGIN '),
  },
  {
    kind: 'jwt',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,4096}\.eyJ[A-Za-z0-9_-]{5,16384}\.[A-Za-z0-9_-]{0,4096}/g,
    accept: (token) => jsonObjectSegment(token.slice(0, token.indexOf('.'))),
    hint: anyOf('eyJ'),
  },
  {
    kind: 'aws_access_key_id',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    hint: anyOf('AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'),
  },
  {
    kind: 'api_key',
    pattern: new RegExp(
      '(?<![A-Za-z0-9_-])(?:' + [
        '(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,128}', // Stripe
        'sk-(?:proj-|ant-(?:api\\d\\d-)?)?[A-Za-z0-9_-]{20,256}', // OpenAI, Anthropic
        'gh[pousr]_[A-Za-z0-9]{36,255}', // GitHub
        'github_pat_[A-Za-z0-9_]{22,255}',
        'glpat-[A-Za-z0-9_-]{20,64}', // GitLab
        'xox[abposr]-[A-Za-z0-9-]{10,255}', // Slack
        'AIza[0-9A-Za-z_-]{35}', // Google
      ].join('|') + ')(?![A-Za-z0-9_-])', 'g'),
    hint: (text) => /k_(?:live|test)_|sk-|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AIza/.test(text),
  },
  {
    kind: 'api_key',
    // `api_key=…`, `"apiKey": "…"`, `x-api-key: …`: a long opaque value right after an api-key-ish name.
    pattern: /(?:api[_-]?key|secret[_-]?key|access[_-]?token|client[_-]?secret)["']?\s{0,4}[:=]\s{0,4}["']?([A-Za-z0-9_\-+/.=]{16,512})/gi,
    group: 1,
    // Every name ends in "key", "token" or "secret", in any case, and a ':' or '=' follows.
    hint: (text) => (text.includes(':') || text.includes('=')) && /key|token|secret/i.test(text),
  },
  {
    kind: 'bearer_token',
    pattern: /\bBearer\s{1,8}([A-Za-z0-9\-._~+/]{8,8192}=*)/gi,
    group: 1,
    hint: (text) => /bearer/i.test(text),
  },
  {
    kind: 'email',
    pattern: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?){0,8}\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g,
    hint: anyOf('@'),
  },
  {
    kind: 'us_ssn',
    // Area 000, 666 and 9xx, group 00 and serial 0000 are never issued.
    pattern: /(?<![0-9-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![0-9-])/g,
    hint: anyOf('-'),
  },
];

function jsonObjectSegment(segment: string): boolean {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return decoded !== null && typeof decoded === 'object' && !Array.isArray(decoded);
  } catch {
    return false;
  }
}

/** Spans found by the pattern detectors, unsorted, possibly overlapping. */
export function findPatternSecrets(text: string): { kind: DetectorKind; start: number; end: number }[] {
  const out: { kind: DetectorKind; start: number; end: number }[] = [];
  for (const d of PATTERN_DETECTORS) {
    if (!d.hint(text)) continue;
    for (const m of text.matchAll(d.pattern)) {
      const secret = d.group === undefined ? m[0] : m[d.group];
      if (secret === undefined || (d.accept && !d.accept(secret))) continue;
      const start = m.index! + (d.group === undefined ? 0 : m[0].lastIndexOf(secret));
      out.push({ kind: d.kind, start, end: start + secret.length });
    }
  }
  return out;
}
