// ~/.ssh/authorized_keys as sshd(8) reads it ("AUTHORIZED_KEYS FILE FORMAT"): each line optional options, then a
// key and a comment; `#` lines and blank lines are kept and shown, so the page reads like the file.
import { mapInSlices } from '../sliced-map.js';
import { isKeyType, keyFacts, parsePublicKeyLine } from './public-key.js';
import { SshWireError } from './ssh-wire.js';

export interface AuthorizedLine {
  /** 1-based, as an editor shows it. */
  line: number;
  kind: 'key' | 'comment' | 'blank' | 'invalid';
  /** Options before the key (`from="10.0.0.0/8"`, `no-pty`), each as written. */
  options: string[];
  type: string | null;
  bits: number | null;
  fingerprint: string | null;
  /** The key's comment, or the text of a `#` line. */
  comment: string;
  error: string | null;
}

/** Splits the options field (up to the first blank outside double quotes) from the rest of the line. */
function splitOptions(text: string): { options: string[]; rest: string } | null {
  const options: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\' && text[i + 1] === '"') { current += '\\"'; i++; continue; }
      if (ch === '"') quoted = false;
      current += ch;
    } else if (ch === '"') {
      quoted = true;
      current += ch;
    } else if (ch === ',') {
      options.push(current);
      current = '';
    } else if (ch === ' ' || ch === '\t') {
      options.push(current);
      return { options, rest: text.slice(i + 1).trimStart() };
    } else {
      current += ch;
    }
  }
  return null;
}

const blank = (line: number, kind: AuthorizedLine['kind'], comment = '', error: string | null = null): AuthorizedLine =>
  ({ line, kind, options: [], type: null, bits: null, fingerprint: null, comment, error });

export function parseAuthorizedKeys(text: string): AuthorizedLine[] {
  return splitLines(text).map(parseAuthorizedLine);
}

/** The same, giving the event loop back every few hundred lines (the file may be up to 1 MiB of RSA keys). */
export function parseAuthorizedKeysSliced(text: string): Promise<AuthorizedLine[]> {
  return mapInSlices(splitLines(text), parseAuthorizedLine);
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function parseAuthorizedLine(raw: string, i: number): AuthorizedLine {
  const t = raw.replace(/\r$/, '').trim();
  if (t === '') return blank(i + 1, 'blank');
  if (t.startsWith('#')) return blank(i + 1, 'comment', t.slice(1).trim());
  let options: string[] = [];
  let rest = t;
  if (!isKeyType(t.split(/[ \t]/)[0])) {
    const split = splitOptions(t);
    if (!split) return blank(i + 1, 'invalid', '', 'no key type after the options (or an unclosed quote)');
    ({ options, rest } = split);
  }
  const key = parsePublicKeyLine(rest);
  if (!key) return blank(i + 1, 'invalid', '', 'not a key: expected [options] type base64 [comment]');
  try {
    const facts = keyFacts(key.blob);
    if (facts.type !== key.type) return { ...blank(i + 1, 'invalid', key.comment, `the line says ${key.type} but the key data is ${facts.type}`), options };
    return { line: i + 1, kind: 'key', options, type: key.type, bits: facts.bits, fingerprint: facts.fingerprint, comment: key.comment, error: null };
  } catch (err) {
    if (err instanceof SshWireError) return { ...blank(i + 1, 'invalid', key.comment, err.message), options, type: key.type };
    throw err;
  }
}
