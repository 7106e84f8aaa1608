// curl command lines as shells read them (bash's quoting: '…', "…", $'…', backslashes and line continuations), the
// way browsers' "Copy as cURL (bash)" and API docs write them. One request per command; several commands may follow
// each other on separate lines.
import { badImport } from './errors.js';
import { emptyRequest, type ApiRequest, type KeyValue } from './types.js';

const ANSI_C: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '?': '?' };

/** Splits shell text into commands of words. A newline outside quotes (not escaped) ends a command, as `;` does. */
export function shellWords(text: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = () => { if (inWord) words.push(word); word = ''; inWord = false; };
  const endCommand = () => { endWord(); if (words.length) commands.push(words); words = []; };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      const next = text[i + 1];
      if (next === '\n') { i++; continue; }
      if (next === '\r' && text[i + 2] === '\n') { i += 2; continue; }
      if (next !== undefined) { word += next; inWord = true; i++; }
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw badImport('a single quote is not closed');
      word += text.slice(i + 1, end); inWord = true; i = end;
      continue;
    }
    if (c === '$' && text[i + 1] === "'") {
      i += 2;
      inWord = true;
      for (; i < text.length && text[i] !== "'"; i++) {
        if (text[i] !== '\\') { word += text[i]; continue; }
        const e = text[++i];
        if (e === 'x') { const hex = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1))![0]; word += String.fromCharCode(parseInt(hex, 16)); i += hex.length; }
        else if (e === 'u' || e === 'U') { const hex = /^[0-9a-fA-F]{1,8}/.exec(text.slice(i + 1))![0]; word += String.fromCodePoint(parseInt(hex, 16)); i += hex.length; }
        else if (/[0-7]/.test(e)) { const oct = /^[0-7]{1,3}/.exec(text.slice(i))![0]; word += String.fromCharCode(parseInt(oct, 8)); i += oct.length - 1; }
        else word += ANSI_C[e] ?? `\\${e}`;
      }
      if (i >= text.length) throw badImport("a $'…' quote is not closed");
      continue;
    }
    if (c === '"') {
      inWord = true;
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && '"\\$`\n'.includes(text[i + 1])) { if (text[i + 1] !== '\n') word += text[i + 1]; i++; }
        else word += text[i];
      }
      if (i >= text.length) throw badImport('a double quote is not closed');
      continue;
    }
    if (c === '\n' || c === ';' || (c === '&' && text[i + 1] === '&')) { if (c === '&') i++; endCommand(); continue; }
    if (c === ' ' || c === '\t' || c === '\r') { endWord(); continue; }
    if (c === '#' && !inWord) { while (i < text.length && text[i] !== '\n') i++; endCommand(); continue; }
    word += c;
    inWord = true;
  }
  endCommand();
  return commands;
}

/** Options that take a value, by every name curl accepts for them. */
const WITH_VALUE = new Set(['-X', '--request', '-H', '--header', '-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--data-urlencode',
  '-u', '--user', '--url', '-b', '--cookie', '-A', '--user-agent', '-e', '--referer', '-o', '--output', '-m', '--max-time', '--connect-timeout',
  '-w', '--write-out', '-x', '--proxy', '-F', '--form', '--oauth2-bearer', '-c', '--cookie-jar', '-r', '--range', '--retry', '-T', '--upload-file']);

const REFUSED: Record<string, string> = { '-F': 'multipart forms (-F) are not imported', '--form': 'multipart forms (--form) are not imported', '-T': 'file uploads (-T) are not imported', '--upload-file': 'file uploads are not imported' };

/** One curl command as a request. Options the editor has no place for (-s, -L, --compressed, -k …) are ignored. */
export function curlToRequest(words: string[]): ApiRequest {
  if (words[0] !== 'curl') throw badImport(`a command line to import must start with curl, not "${words[0].slice(0, 40)}"`);
  let method: string | undefined;
  let url: string | undefined;
  const headers: KeyValue[] = [];
  const data: string[] = [];
  let user: string | undefined;
  let get = false;
  let head = false;
  for (let i = 1; i < words.length; i++) {
    let opt = words[i];
    let value: string | undefined;
    if (opt.startsWith('--') && opt.includes('=')) { value = opt.slice(opt.indexOf('=') + 1); opt = opt.slice(0, opt.indexOf('=')); }
    else if (/^-[A-Za-z]./.test(opt) && WITH_VALUE.has(opt.slice(0, 2))) { value = opt.slice(2); opt = opt.slice(0, 2); }
    if (!opt.startsWith('-') || opt === '-') { url ??= opt; continue; }
    if (REFUSED[opt]) throw badImport(REFUSED[opt]);
    if (WITH_VALUE.has(opt) && value === undefined) {
      value = words[++i];
      if (value === undefined) throw badImport(`${opt} needs a value`);
    }
    switch (opt) {
      case '-X': case '--request': method = value!.toUpperCase(); break;
      case '-H': case '--header': {
        const colon = value!.indexOf(':');
        // `-H 'Name;'` is curl's way to send a header with an empty value.
        if (colon <= 0 && /^[^\s:;]+;$/.test(value!)) { headers.push({ name: value!.slice(0, -1), value: '' }); break; }
        if (colon <= 0) throw badImport(`the header "${value!.slice(0, 60)}" has no name: value form`);
        const v = value!.slice(colon + 1).trim();
        if (v) headers.push({ name: value!.slice(0, colon).trim(), value: v });
        break;
      }
      case '-d': case '--data': case '--data-ascii': case '--data-binary':
        if (value!.startsWith('@')) throw badImport(`${opt} ${value!.slice(0, 40)} reads a file; paste the body itself with --data-raw`);
        data.push(opt === '--data-binary' ? value! : value!.replace(/[\r\n]/g, ''));
        break;
      case '--data-raw': data.push(value!); break;
      case '--data-urlencode': {
        const eq = value!.indexOf('=');
        data.push(eq < 0 ? encodeURIComponent(value!) : `${value!.slice(0, eq + 1)}${encodeURIComponent(value!.slice(eq + 1))}`);
        break;
      }
      case '-u': case '--user': user = value; break;
      case '--url': url = value; break;
      case '-b': case '--cookie': headers.push({ name: 'Cookie', value: value! }); break;
      case '-A': case '--user-agent': headers.push({ name: 'User-Agent', value: value! }); break;
      case '-e': case '--referer': headers.push({ name: 'Referer', value: value! }); break;
      case '--oauth2-bearer': headers.push({ name: 'Authorization', value: `Bearer ${value!}` }); break;
      case '-G': case '--get': get = true; break;
      case '-I': case '--head': head = true; break;
      default: break;
    }
  }
  if (!url) throw badImport('the curl command names no URL');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) url = `http://${url}`;
  let body = data.join('&');
  if (get && body) { url += (url.includes('?') ? '&' : '?') + body; body = ''; }
  // curl sends a form content type with -d unless one is given: the request keeps it, so it is sent the same way.
  if (body && !headers.some((h) => h.name.toLowerCase() === 'content-type')) headers.push({ name: 'Content-Type', value: 'application/x-www-form-urlencoded' });
  const auth = user === undefined ? { type: 'none' as const }
    : { type: 'basic' as const, username: user.split(':')[0], password: user.includes(':') ? user.slice(user.indexOf(':') + 1) : '' };
  const finalMethod = method ?? (head ? 'HEAD' : body ? 'POST' : 'GET');
  let name = `${finalMethod} ${url}`;
  try { const u = new URL(url); name = `${finalMethod} ${u.pathname}`; } catch { /* keep the raw text */ }
  return emptyRequest({ name, method: finalMethod, url, headers, body, auth });
}

/** Every curl command in the text, in order. */
export function importCurl(text: string): ApiRequest[] {
  const commands = shellWords(text).filter((w) => w.length > 0);
  if (!commands.length) throw badImport('there is no curl command in the text');
  return commands.map(curlToRequest);
}
