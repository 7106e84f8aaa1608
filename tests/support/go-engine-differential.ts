// Generated inputs run through the TypeScript engine, for the Go port of it (middleware/go) to reproduce exactly:
// path readings and folds, detector redaction, and whole governed records. Seeded, so a failure reproduces.
import { seededRandom } from '@vigil/plugin-sdk';
import { pathReadings, foldPath } from '../../policies/fold-path.js';
import { redactText } from '../../policies/detectors/index.js';
import { DETECTOR_KINDS } from '../../policies/detectors/types.js';
import { compilePolicy } from '../../policies/compile.js';
import { extractLabels } from '../../policies/extract-labels.js';
import { governForStorage } from '../../gateway/govern/govern.js';
import { recordJson } from '../../gateway/records/governed-record.js';
import type { RawExchange } from '../../gateway/exchange/raw-exchange.js';
import type { RuleConfig } from '../../policies/schema.js';
import { adminUsers, paymentsCharge, authorityTricks, terminatorTricks, eachSpelling } from './path-spellings.js';

const PATH_PIECES = ['/', '/', '/', '\\', '%2f', '%2F', '%25', '%2e', '.', '..', ';', ';x=1', 'A', 'a', 'admin', 'Users', 'ı', '%C4%B1',
  '%EF%BC%8F', '%00', '%20', '?', '#', '%3F', '%23', 'http://h', '//', '%u002f', '%uD800', '%C0%AF', 'x.json', '.tar.gz', 'ß', 'ﬀ',
  'İ', 'Σ', 'ΑΣ', '\u212a', '~', '%E2%80%8B', ' ', '\t', '%0d%0a', '%252e', '%25252f', 'é', 'e\u0301', '\ud83d\ude00', '%F0%9F%98%80',
  '%c3', '%ff', '%u00e9', '＠', '①', 'ǅ', '\u0345', '%E1%84%80%E1%85%A1'];

const SECRET_PIECES = ['ada@example.com', 'x.y+z@mail.co.uk', 'a@b', 'a@b.c', '@@', 'john..doe@ex-ample.com.', '4111 1111 1111 1111',
  '4111-1111-1111-1111', '4111111111111111', '41111111111111112', '5500 0000 0000 0004', '378282246310005', '6011111111111117',
  '1700000000000', 'DE89 3704 0044 0532 0130 00', 'GB82WEST12345698765432', 'GB82 WEST 1234 5698 7654 32XX', 'NL91ABNA0417164300',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', 'eyJub3Rqc29u.eyJhYmNkZQ.x', 'AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLEX',
  'sk_live_abcdefghijklmnop1234', 'sk-proj-abcdefghijklmnopqrstuvwx', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz', 'ghp_' + 'a'.repeat(36),
  'github_pat_' + 'b'.repeat(22), 'glpat-' + 'c'.repeat(20), 'xoxb-1234567890-abc', 'AIza' + 'd'.repeat(35), 'api_key=abcdefghijklmnop1234',
  '"apiKey": "ABCDEFGHIJKLMNOPQRST"', 'x-api-key: 0123456789abcdef0123', 'Bearer abcdefgh12345678==', 'bearer\t\txyz.abc-def_ghi',
  'Authorization: Bearer ', '123-45-6789', '000-12-3456', '123-00-4567', '-123-45-6789', '-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----',
  '-----BEGIN PRIVATE KEY-----abc', ' ', '  ', '-', '.', ',', '\n', 'é', '日本', '0', '12', '9', 'x', 'A', '=', ':', '"', "'"];

export interface DifferentialFile {
  folds: { target: string; readings: string[] | null; folded: string | null }[];
  detect: { text: string; redacted: string }[];
  govern: { config: string; exchange: Omit<RawExchange, 'requestBody' | 'responseBody'> & { requestBody: string | null; responseBody: string | null }; record: string | null }[];
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)];
}

const CONFIGS: Record<string, RuleConfig[]> = {
  paths: [
    { name: 'all', match: { path: '/**' } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body'] },
    { name: 'payments', match: { path: '/api/payments/**', methods: ['post'] }, redact: { json_fields: ['$.card', '$.**.cvv', '$.items.*.pan'], headers: ['Authorization'], query_params: ['Token'] }, meter: { tokens: '$.usage.total_tokens' } },
    { name: 'profile', match: { path: '/api/*/profile' }, labels: { tenant: 'header:X-Tenant' }, redact: { headers: ['x-tenant'] } },
    { name: 'detect', match: { path: '/support/**' }, redact: { detect: ['email', 'card_number', 'iban', 'jwt', 'bearer_token', 'api_key', 'us_ssn', 'aws_access_key_id', 'private_key'] } },
    { name: 'quiet', match: { path: '/quiet/**' }, sample: 0, keep_errors: true },
    { name: 'hidden', match: { path: '/hidden/**' }, restrict: ['request_body', 'response_body', 'headers'] },
    { name: 'paths', match: { path: '/json/**' }, redact: { json_fields: ["$['a.b']", '$.items[0]', '$.*.card', '$.a.**.a', '$'] } },
    { name: 'deep', match: { path: '/json/deep/**' }, redact: { json_fields: ['$.**.pan', '$.x.*.*'] }, meter: { tokens: '$.**.total_tokens' } },
    { name: 'meter', match: { path: '/meter/**' }, meter: { tokens: '$.usage.*' } },
  ],
};

/** JSON texts written by hand, as clients send them: escapes, repeated keys, odd numbers, blanks. */
const JSON_TEXTS = [
  '{"a.b": 1, "items": [ {"x":1}, 2 ], "usage": {"total_tokens": 12}}', '{"a":{"a":{"a":1}},"card":{"card":2}}',
  '{"\\u0063ard": "4111 1111 1111 1111", "usage": {"total_tokens": 1e2}}', '{"card":1,"card":2}', '[{"pan":"x"},{"pan":{"pan":1}}]',
  '{"usage":{"total_tokens":-1,"prompt":3.50}}', '{"usage":{"x":"7","y":0.0,"z":9}}', ' {"usage" : { "total_tokens" : 00 }} ',
  '{"x":{"y":{"z":1},"w":[1,2]}}', '{"e":"ada\\u0040example.com","k":"\\ud83d\\ude00","l":"\\ud800"}', '"just a string"', '12', 'null',
  '{"usage":{"total_tokens":123456789012345678901234567890}}', '{"a":[],"b":{},"c":[[]]}', '{"a" 1}', '{"a":1}x', '[1,]', '{"a":"\\x"}',
  '{"ada@example.com": 1, "AKIAIOSFODNN7EXAMPLE": {"ada@example.com": 2}}', '{"n": 1.0, "m": 1E+2, "k": -0}',
];

function jsonBody(random: () => number, depth = 0): unknown {
  const r = random();
  if (depth > 3 || r < 0.3) {
    const leaf = random();
    if (leaf < 0.3) return pick(random, SECRET_PIECES);
    if (leaf < 0.5) return Math.floor(random() * 1000) / (random() < 0.5 ? 1 : 8);
    if (leaf < 0.6) return random() < 0.5;
    if (leaf < 0.7) return null;
    return pick(random, ['x', '', 'é', '\u2028', '<&>', '\u0001']);
  }
  if (r < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => jsonBody(random, depth + 1));
  const o: Record<string, unknown> = {};
  const n = Math.floor(random() * 5);
  for (let i = 0; i < n; i++) o[pick(random, ['card', 'cvv', 'items', 'pan', 'usage', 'total_tokens', 'a', '1', '0', 'email', 'ada@example.com', 'x'])] = jsonBody(random, depth + 1);
  return o;
}

/** The file of generated cases and the TypeScript engine's answers. */
export function differentialCases(seed = 36, count = 2000): DifferentialFile {
  const random = seededRandom(seed);
  const targets: string[] = [];
  for (const s of [adminUsers, paymentsCharge, authorityTricks, terminatorTricks]) for (const [, t] of eachSpelling(s)) targets.push(t);
  // Ambiguous ones: more layers of encoding than the fold decodes, and long paths that need more than lower case.
  targets.push('/x/%252525252525252561', '/x/%25252525252525252561', `/${'A'.repeat(3000)}`, `/${'a%41'.repeat(700)}`, `/${'a'.repeat(3000)}`,
    `/api/${'%2e%2e/'.repeat(400)}admin`, '*', '', 'http://h', 'https://h:1?x', '\\evil\\admin');
  for (let i = 0; i < count; i++) {
    let t = random() < 0.8 ? '/' : '';
    const n = 1 + Math.floor(random() * 8);
    for (let k = 0; k < n; k++) t += pick(random, PATH_PIECES);
    targets.push(t);
  }
  const folds = targets.map((target) => ({ target, readings: pathReadings(target), folded: foldPath(target) }));

  const detect: DifferentialFile['detect'] = [];
  // Characters the detectors look at, strung at random: edges the pieces above never make.
  const ALPHABET = '0123456789      ---@@..__==::\'"AKIeyJskpgh_xoblatWESTDEGBXZ\n\té';
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let k = Math.floor(random() * 60); k > 0; k--) text += ALPHABET[Math.floor(random() * ALPHABET.length)];
    if (random() < 0.5) text += pick(random, SECRET_PIECES);
    detect.push({ text, redacted: redactText(text, DETECTOR_KINDS) });
  }
  for (let i = 0; i < count; i++) {
    let text = '';
    const n = 1 + Math.floor(random() * 5);
    for (let k = 0; k < n; k++) text += pick(random, SECRET_PIECES) + (random() < 0.5 ? pick(random, [' ', '', ',', '\n', 'x', '1', '-']) : '');
    detect.push({ text, redacted: redactText(text, DETECTOR_KINDS) });
  }

  const govern: DifferentialFile['govern'] = [];
  const policy = compilePolicy({ rules: CONFIGS.paths });
  for (let i = 0; i < count; i++) {
    const path = pick(random, ['/api/payments/charge', '/API/Payments/charge.json', '/api/u1/profile', '/support/ticket', '/quiet/x', '/hidden/x', '/admin/users', '/other',
      '/json/x', '/json/deep/y', '/meter/z', '/support/deep']);
    const query = random() < 0.5 ? '' : `?${pick(random, ['token=abc', 'TOKEN=1&x=2', 'a=1&a=2&%74oken=3', '1=x&b=y&0=z', 'q=%E9', 'q=%C3%A9+x', 'e=ada%40example.com', 'bad=%zz&ok'])}`;
    const method = pick(random, ['GET', 'POST', 'post']);
    const target = path + query;
    const decision = policy.decide(method, target);
    const bodyOf = () => {
      const r = random();
      if (r < 0.3) return pick(random, JSON_TEXTS);
      if (r < 0.6) return JSON.stringify(jsonBody(random), null, random() < 0.2 ? 2 : undefined);
      if (r < 0.7) return pick(random, SECRET_PIECES);
      if (r < 0.8) return '{"card": 1,';
      return '';
    };
    const requestText = bodyOf();
    const responseText = bodyOf();
    const requestHeaders = ['Host', 'api.example', 'Content-Type', pick(random, ['application/json', 'text/plain', 'application/problem+json', '']),
      'authorization', pick(random, ['Bearer abcdefgh12345678', 'Basic x']), 'X-Tenant', pick(random, ['acme', 'ada@example.com']), 'x-a', '1', 'X-A', '2'];
    const responseHeaders = ['Content-Type', pick(random, ['application/json', 'text/plain; charset=utf-8', 'image/png']), 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2'];
    const status = pick(random, [200, 201, 404, 500, 0]);
    const maxBody = random() < 0.5 ? 64 : 4096;
    const cut = (text: string) => {
      const bytes = Buffer.from(text);
      return { body: bytes.subarray(0, maxBody), truncated: bytes.length > maxBody };
    };
    const req = cut(requestText);
    const res = cut(responseText);
    const exchange: RawExchange = {
      id: '', time: 0, method, target, path: target.split('?')[0], ruleIndexes: [...decision.ruleIndexes],
      labels: extractLabels(decision, requestHeaders), requestHeaders: decision.captureHeaders ? requestHeaders : null,
      responseHeaders: decision.captureHeaders ? responseHeaders : null, status, durationMs: 0,
      requestBody: decision.captureRequestBody ? req.body : null, requestTruncated: decision.captureRequestBody && req.truncated,
      responseBody: decision.captureResponseBody ? res.body : null, responseTruncated: decision.captureResponseBody && res.truncated,
    };
    const captures = decision.captureRequestBody || decision.captureResponseBody || decision.captureHeaders;
    const record = captures ? recordJson(governForStorage(exchange, decision, { random: () => 0.5 })) : null;
    govern.push({
      config: 'paths',
      exchange: { ...exchange, requestBody: exchange.requestBody && Buffer.from(exchange.requestBody).toString('base64'), responseBody: exchange.responseBody && Buffer.from(exchange.responseBody).toString('base64') },
      record,
    });
  }
  return { folds, detect, govern };
}

/** The config the govern cases use, as YAML (JSON is YAML). */
export function differentialConfig(): string {
  return JSON.stringify({ rules: CONFIGS.paths });
}
