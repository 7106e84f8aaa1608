// Detectors (`redact.detect`): sensitive-looking values masked wherever they appear, under the `detect` config.
import { jsonRequest, jsonResponse, request, response, type CorpusCase } from './case-model.js';

const config = 'detect';
const family = 'detectors';

const CARD = '4111111111111111';
const IBAN = 'GB82WEST12345698765432';
const EMAIL = 'ada@example.com';
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const SSN = '123-45-6789';
const KEY = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----';

const c = (name: string, req: CorpusCase['request'], res: CorpusCase['response'] = jsonResponse({ ok: true })): CorpusCase =>
  ({ name: `detectors: ${name}`, family, config, request: req, response: res });

export const detectCases = (): CorpusCase[] => [
  c('a card number in a JSON string, any field name', jsonRequest('POST', '/detect/1', { note: `pay with ${CARD} please`, n: 1 })),
  c('a card number with spaces and dashes', jsonRequest('POST', '/detect/2', { a: '4111 1111 1111 1111', b: '4111-1111-1111-1111' })),
  c('a number that fails Luhn is kept', jsonRequest('POST', '/detect/3', { a: '4111111111111112' })),
  c('an IBAN', jsonRequest('POST', '/detect/4', { account: IBAN, spaced: 'GB82 WEST 1234 5698 7654 32' })),
  c('emails in text, in a key, and escaped', jsonRequest('POST', '/detect/5', `{"to":"${EMAIL}","${EMAIL}":"as a key","esc":"ada\\u0040example.com"}`)),
  c('a JWT and a bearer token in a header', request('GET', '/detect/6', [['Authorization', `Bearer ${JWT}`], ['X-Token', JWT]])),
  c('an AWS access key id in the query', request('GET', `/detect/7?key=${AWS}&other=1`)),
  c('an API key and a private key in the response', request('GET', '/detect/8'), jsonResponse({ key: KEY, pem: PEM })),
  c('a US SSN in a text body', request('POST', '/detect/9', [['Content-Type', 'text/plain']], `ssn: ${SSN}, not 000-12-3456`), response(200, [['Content-Type', 'text/plain']], 'ok')),
  c('an email in the path', request('GET', `/detect/users/${EMAIL}/x`)),
  c('an email in a label-free header and a response header', request('GET', '/detect/10', [['X-User', EMAIL]]), response(200, [['X-Owner', EMAIL], ['Content-Type', 'text/plain']], `owner ${EMAIL}`)),
  c('a body with nothing detected keeps its own text', jsonRequest('POST', '/detect/11', '{ "plain" : "nothing here" , "n" : 1.0 }')),
  c('cards-only: a card masked, an email kept', jsonRequest('POST', '/cards/1', { card: CARD, email: EMAIL })),
  c('detectors do not run on routes without them', jsonRequest('POST', '/other/1', { card: CARD, email: EMAIL })),
];
