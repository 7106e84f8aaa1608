/**
 * National identity numbers that carry a check digit, so a match is more than a format: the Spanish DNI and NIE
 * (mod-23 check letter) and the Dutch BSN (11-proof). Formats without a checksum (the US SSN) are matched elsewhere
 * by their issuance rules only. These are not part of `detect()`: a 9-digit BSN passes the 11-proof one time in
 * eleven by chance, so `findNationalIds` wants the field name to say BSN before it calls 9 digits one.
 */
export type NationalIdKind = 'es_dni' | 'nl_bsn';

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** The DNI (8 digits + letter) or NIE (X/Y/Z + 7 digits + letter) check: the number mod 23 picks the letter. */
export function dniValid(id: string): boolean {
  const m = /^([XYZ]|[0-9])([0-9]{7})([A-Z])$/.exec(id.toUpperCase());
  if (!m) return false;
  const lead = m[1] === 'X' ? '0' : m[1] === 'Y' ? '1' : m[1] === 'Z' ? '2' : m[1];
  return DNI_LETTERS[Number(lead + m[2]) % 23] === m[3];
}

/** The BSN 11-proof: 9·d1 + 8·d2 + … + 2·d8 − d9 is a multiple of 11 (and the number is not all zeros). */
export function bsnValid(id: string): boolean {
  if (!/^[0-9]{9}$/.test(id) || /^0+$/.test(id)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (9 - i) * (id.charCodeAt(i) - 48);
  sum -= id.charCodeAt(8) - 48;
  return sum % 11 === 0;
}

const DNI = /(?<![A-Za-z0-9])(?:[XYZ][0-9]{7}|[0-9]{8})-?[A-Z](?![A-Za-z0-9])/g;
const BSN_FIELD = /(?:^|[^a-z])(?:bsn|burgerservicenummer|sofinummer)(?:$|[^a-z])/i;

/** Checksummed national ids in `text`; `field` (a key, parameter or header name) lets 9 digits count as a BSN. */
export function findNationalIds(text: string, field = ''): { kind: NationalIdKind; start: number; end: number }[] {
  const out: { kind: NationalIdKind; start: number; end: number }[] = [];
  for (const m of text.matchAll(DNI)) {
    if (dniValid(m[0].replace('-', ''))) out.push({ kind: 'es_dni', start: m.index!, end: m.index! + m[0].length });
  }
  if (BSN_FIELD.test(field)) {
    for (const m of text.matchAll(/(?<![0-9])[0-9]{9}(?![0-9])/g)) {
      if (bsnValid(m[0])) out.push({ kind: 'nl_bsn', start: m.index!, end: m.index! + 9 });
    }
  }
  return out;
}
