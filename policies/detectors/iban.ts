/** IBAN lengths per country (ISO 13616 registry). A country not listed is not treated as an IBAN. */
const IBAN_LENGTHS: Record<string, number> = Object.fromEntries(
  ('AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 EE20 EG29 ES24 ' +
    'FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 ' +
    'LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 ' +
    'SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20')
    .split(' ').map((e) => [e.slice(0, 2), Number(e.slice(2))]),
);

/** ISO 7064 mod 97-10: move the first four characters to the end, letters to numbers, remainder must be 1. */
export function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const digit of value) {
      const d = digit.charCodeAt(0) - 48;
      if (d < 0 || d > 9) return false;
      remainder = (remainder * 10 + d) % 97;
    }
  }
  return remainder === 1;
}

const COUNTRY_AND_CHECK = /[A-Z]{2}[0-9]{2}/;
// Bounded repetition keeps the scan linear on long inputs.
const CANDIDATE = /(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,30}/g;

/** Spans of IBANs (compact or in groups of four) whose country length and checksum are right. */
export function findIbans(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  // The country and check digits without the candidate's lookbehind: most text has no such four characters at all.
  if (!COUNTRY_AND_CHECK.test(text)) return out;
  for (const m of text.matchAll(CANDIDATE)) {
    const expected = IBAN_LENGTHS[m[0].slice(0, 2)];
    if (expected === undefined) continue;
    // The candidate may run on into a following word; keep exactly the country's number of characters.
    let count = 0;
    let end = 0;
    while (end < m[0].length && count < expected) {
      if (m[0][end] !== ' ') count++;
      end++;
    }
    if (count < expected) continue;
    const next = m[0][end];
    if (next !== undefined && next !== ' ') continue; // followed directly by more alphanumerics: not this IBAN
    const compact = m[0].slice(0, end).replace(/ /g, '');
    if (ibanChecksumValid(compact)) out.push({ start: m.index!, end: m.index! + end });
  }
  return out;
}
