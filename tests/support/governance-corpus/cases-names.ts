// Header and query parameter redaction (canonical capitalisation, repeats, encodings), under the `names` config.
import { jsonResponse, OK, request, response, type CorpusCase } from './case-model.js';

const config = 'names';

const h = (name: string, target: string, headers: [string, string][], res = OK()): CorpusCase =>
  ({ name: `headers: ${name}`, family: 'headers', config, request: request('GET', target, headers), response: res });
const q = (name: string, target: string): CorpusCase =>
  ({ name: `query: ${name}`, family: 'query parameters', config, request: request('GET', target), response: OK() });

export const nameCases = (): CorpusCase[] => [
  h('Authorization redacted, others kept, names canonical', '/h/1', [['authorization', 'Bearer abc'], ['x-request-id', 'r-1'], ['ACCEPT', 'application/json']]),
  h('redaction matches any spelling of the name', '/h/2', [['X-API-KEY', 'k1'], ['x-Api-key', 'k2'], ['Cookie', 'a=1']]),
  h('a repeated header becomes an array in arrival order', '/h/3', [['X-Tag', 'one'], ['Accept', '*/*'], ['x-tag', 'two'], ['X-TAG', 'three']]),
  h('a repeated redacted header is redacted at every value', '/h/4', [['Authorization', 'one'], ['authorization', 'two']]),
  h('response headers: Set-Cookie repeated and redacted, others kept', '/h/5', [], response(200, [['Content-Type', 'text/plain'], ['Set-Cookie', 'a=1'], ['set-cookie', 'b=2'], ['X-Powered-By', 'corpus']], 'ok')),
  h('response header names are canonical (x-ratelimit-remaining)', '/h/6', [], response(200, [['x-ratelimit-remaining', '9'], ['content-type', 'application/json']], '{}')),
  h('hop-by-hop response headers are not recorded', '/h/7', [], response(200, [['Content-Type', 'text/plain'], ['Keep-Alive', 'timeout=5'], ['X-Kept', 'yes']], 'ok')),
  h('underscores and dots are token characters: canonical around hyphens only', '/h/8', [['x_under_score', 'u'], ['X-Dots.In.Name', 'd']]),
  h('empty header values', '/h/9', [['X-Empty', ''], ['Authorization', '']]),
  h('values keep their inner spaces', '/h/10', [['X-Spaced', 'a  b'], ['X-Quoted', '"q" \\ back']]),
  h('response headers the Connection header lists are not recorded', '/h/13', [], response(200, [['Connection', 'X-Debug'], ['X-Debug', 'trace'], ['Content-Type', 'text/plain']], 'ok')),
  h('a rule adds X-Extra on its routes', '/more/h', [['X-Extra', 'e'], ['Authorization', 'a']]),
  h('X-Extra is kept where the rule does not apply', '/h/11', [['X-Extra', 'e']]),
  h('the response JSON is recorded with the headers', '/h/12', [['Accept', 'application/json']], jsonResponse({ id: 1 }, 200, [['ETag', '"v1"']])),
  q('token redacted, others kept', '/q/1?token=abc&x=1'),
  q('names match case-insensitively (Token, TOKEN, api_key)', '/q/2?Token=a&TOKEN=b&api_key=c&Api_Key=d'),
  q('an encoded name is decoded before it is matched', '/q/3?%74oken=a&%41PI_KEY=b'),
  q('a repeated parameter becomes an array', '/q/4?x=1&y=2&x=3&x=4'),
  q('a repeated redacted parameter is redacted at every value', '/q/5?token=1&token=2'),
  q('values are percent-decoded and + is a space', '/q/6?q=caf%C3%A9+au+lait&sum=1%2B1&sp=a%20b'),
  q('a malformed escape is kept as written', '/q/7?bad=%E0%A4%A&worse=%zz'),
  q('a parameter without = has an empty value, empty pairs are skipped', '/q/8?flag&&x=&=v'),
  q('integer-like names are ordered as JavaScript orders keys', '/q/9?2=b&1=a&z=last&10=ten'),
  q('an empty query', '/q/10?'),
  q('a fragment is not part of the query', '/q/11?a=1#frag=2'),
  q('a rule adds extra on its routes', '/more/q?extra=1&token=2&other=3'),
  q('__proto__ as a parameter name is an ordinary key', '/q/12?__proto__=x&constructor=y'),
];
