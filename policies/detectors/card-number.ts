/**
 * Payment card numbers: 13 to 19 digits, optionally grouped by single spaces or dashes. A candidate must first
 * carry a known issuer prefix with a length that issuer uses, and only then pass Luhn; the prefix check is what keeps
 * 13-digit millisecond timestamps (which start with 1) and other Luhn-valid ids from matching.
 */
export interface CardIssuer {
  name: string;
  prefix: RegExp;
  lengths: readonly number[];
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const CARD_ISSUERS: readonly CardIssuer[] = [
  { name: 'visa', prefix: /^4/, lengths: [13, 16, 19] },
  { name: 'mastercard', prefix: /^(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, lengths: [16] },
  { name: 'amex', prefix: /^3[47]/, lengths: [15] },
  { name: 'discover', prefix: /^(?:6011|64[4-9]|65|622(?:12[6-9]|1[3-9]\d|[2-8]\d\d|9[01]\d|92[0-5]))/, lengths: range(16, 19) },
  { name: 'diners', prefix: /^(?:30[0-5]|3095|36|3[89])/, lengths: range(14, 19) },
  { name: 'jcb', prefix: /^35(?:2[89]|[3-8]\d)/, lengths: range(16, 19) },
  { name: 'unionpay', prefix: /^62/, lengths: range(16, 19) },
  { name: 'maestro', prefix: /^(?:5018|5020|5038|5893|6304|6759|676[1-3])/, lengths: range(13, 19) },
  { name: 'mir', prefix: /^220[0-4]/, lengths: range(16, 19) },
];

/** The issuer whose prefix and length fit `digits`, or undefined. */
export function cardIssuer(digits: string): CardIssuer | undefined {
  return CARD_ISSUERS.find((i) => i.lengths.includes(digits.length) && i.prefix.test(digits));
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

// Not preceded or followed by a digit: a card number is never a slice of a longer number.
const CANDIDATE = /(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])/g;

/** Thirteen digits anywhere in the text: every card number has them (one regex pass, cheaper than the candidates'). */
const THIRTEEN_DIGITS = /[0-9](?:[^0-9]*[0-9]){12}/;

/** Spans of card numbers in `text`. */
export function findCardNumbers(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  if (!THIRTEEN_DIGITS.test(text)) return out;
  for (const m of text.matchAll(CANDIDATE)) {
    const digits = m[0].replace(/[ -]/g, '');
    // Grouping must be consistent: one separator kind, never doubled (rules out "1 2 3 …" lists of numbers).
    if (/[ ][-]|[-][ ]/.test(m[0]) || (/ /.test(m[0]) && /-/.test(m[0]))) continue;
    if (cardIssuer(digits) && luhnValid(digits)) out.push({ start: m.index!, end: m.index! + m[0].length });
  }
  return out;
}
