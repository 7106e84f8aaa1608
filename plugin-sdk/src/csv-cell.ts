/**
 * One RFC 4180 field, always quoted. A text that a spreadsheet would run as a formula (it starts with = + - @, a
 * tab or a carriage return: OWASP's CSV injection list) gets a leading apostrophe. Numbers are never neutralised.
 */
export const csvCell = (v: string | number | null): string => {
  if (v === null) return '""';
  const s = String(v);
  return `"${(typeof v === 'string' && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s).replace(/"/g, '""')}"`;
};
