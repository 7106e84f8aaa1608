// Path spellings and the fold (every spelling of tests/support/path-spellings.ts, the table the fold's own tests
// run), globs and methods, under the `paths` config.
import { adminUsers, authorityTricks, eachSpelling, paymentsCharge, terminatorTricks } from '../path-spellings.js';
import { DATE, jsonRequest, jsonResponse, OK, request, type CorpusCase } from './case-model.js';

const config = 'paths';
const CARD = '4111111111111111';

/**
 * Node's HTTP parser (so the gateway, Express and Koa) answers 400 to a target that starts with a backslash or has one in
 * its authority: such spellings never reach governance, and are left out.
 */
const sendable = ([, target]: [string, string]): boolean => !target.startsWith('\\') && !/^[a-z]+:\/\/[^/]*\\/i.test(target);

function withQuery(target: string, query: string): string {
  return `${target}${target.includes('?') ? '&' : '?'}${query}`;
}

/** `/admin/users` spelled every way: the admin rule applies (request body restricted, X-Admin-Key redacted). */
function adminCases(): CorpusCase[] {
  return [...eachSpelling(adminUsers), ...eachSpelling(authorityTricks)].filter(sendable).map(([family, target]) => ({
    name: `path fold (${family}): ${target} is /admin/users`,
    family: 'path fold',
    config,
    request: jsonRequest('POST', target, { user: 'ada' }, [['X-Admin-Key', 'k-123']]),
    response: jsonResponse({ created: true }, 201),
  }));
}

/** `/api/payments/charge` spelled every way: payments redacts $.card, charge redacts ?cvc. */
function paymentCases(): CorpusCase[] {
  return [...eachSpelling(paymentsCharge), ...eachSpelling(terminatorTricks)].filter(sendable).map(([family, target]) => ({
    name: `path fold (${family}): ${target} is /api/payments/charge`,
    family: 'path fold',
    config,
    request: jsonRequest('POST', withQuery(target, 'cvc=123&amount=5'), { card: CARD, amount: 5 }),
    response: jsonResponse({ card: CARD, status: 'charged' }),
  }));
}

const others: CorpusCase[] = [
  { name: 'path fold: the plain path', family: 'path fold', config, request: request('GET', '/admin/users'), response: OK() },
  { name: 'path fold: a path no rule but all matches', family: 'path fold', config, request: request('GET', '/public/info'), response: OK() },
  { name: 'path fold: the root path', family: 'path fold', config, request: request('GET', '/'), response: OK() },
  { name: 'path fold: %3F stays in the path, the query starts at ?', family: 'path fold', config, request: request('GET', '/admin%3Fx/users?y=1'), response: OK() },
  { name: 'globs: * within one segment (/api/*/profile)', family: 'globs', config, request: request('GET', '/api/ada/profile'), response: OK() },
  { name: 'globs: * does not cross a segment', family: 'globs', config, request: request('GET', '/api/a/b/profile'), response: OK() },
  { name: 'globs: an encoded slash is read both ways (/api/a%2Fb/profile)', family: 'globs', config, request: request('GET', '/api/a%2Fb/profile'), response: OK() },
  { name: 'globs: *.json within a segment', family: 'globs', config, request: request('GET', '/files/report.json'), response: OK() },
  { name: 'globs: *.json does not match another extension', family: 'globs', config, request: request('GET', '/files/report.xml'), response: OK() },
  { name: 'globs: v* prefix with ** below', family: 'globs', config, request: request('GET', '/v2/users/7/orders'), response: OK() },
  { name: 'globs: ** matches zero segments', family: 'globs', config, request: request('GET', '/v1/users'), response: OK() },
  { name: 'globs: a rule on one exact path (charge)', family: 'globs', config, request: request('GET', '/api/payments/charge?cvc=999'), response: OK() },
  { name: 'globs: the exact rule does not match below it', family: 'globs', config, request: request('GET', '/api/payments/charge/x?cvc=999'), response: OK() },
  { name: 'globs: the extension is read off for the exact rule', family: 'globs', config, request: request('GET', '/api/payments/charge.json?cvc=999'), response: OK() },
  { name: 'methods: POST matches a rule listing post', family: 'methods', config, request: jsonRequest('POST', '/api/orders/1', { secret: 's', n: 1 }), response: jsonResponse({ secret: 's2' }, 201) },
  { name: 'methods: PUT matches a rule listing PUT', family: 'methods', config, request: jsonRequest('PUT', '/api/orders/1', { secret: 's', n: 2 }), response: jsonResponse({ secret: 's2' }) },
  { name: 'methods: GET does not match it', family: 'methods', config, request: request('GET', '/api/orders/1'), response: jsonResponse({ secret: 'visible' }) },
  { name: 'methods: PATCH is not in the rule list', family: 'methods', config, request: jsonRequest('PATCH', '/api/orders/1', { secret: 's' }), response: jsonResponse({ secret: 'visible' }) },
  { name: 'methods: DELETE answered 204 (no body)', family: 'methods', config, request: request('DELETE', '/api/orders/1'), response: { status: 204, headers: [['Date', DATE]] } },
  { name: 'methods: HEAD has no response body', family: 'methods', config, request: request('HEAD', '/public/info'), response: { status: 200, headers: [['Content-Type', 'application/json'], ['Date', DATE], ['Content-Length', '11']] } },
  { name: 'no record: a route restricting every part (vault)', family: 'no record', config, request: jsonRequest('POST', '/vault/keys', { key: 'k' }), response: OK() },
  { name: 'no record: a spelling of the vault route', family: 'no record', config, request: request('GET', '/VAULT;x/%6beys'), response: OK() },
];

export const pathCases = (): CorpusCase[] => [...adminCases(), ...paymentCases(), ...others];
