// restrict (each part), sample 0 / 1, keep_errors, labels from headers, meter, under the `capture` config.
import { jsonRequest, jsonResponse, OK, request, type CorpusCase } from './case-model.js';

const config = 'capture';
const BODY = { password: 'p', n: 1 };

const c = (family: string, name: string, req: CorpusCase['request'], res: CorpusCase['response'] = jsonResponse({ answer: 'yes' })): CorpusCase =>
  ({ name: `${family}: ${name}`, family, config, request: req, response: res });

export const captureCases = (): CorpusCase[] => [
  c('restrict', 'request_body: the request body is null, the rest kept', jsonRequest('POST', '/restrict/request/1', BODY, [['X-Tenant', 'acme']])),
  c('restrict', 'response_body: the response body is null, the rest kept', jsonRequest('POST', '/restrict/response/1', BODY)),
  c('restrict', 'headers: headers and response headers are null, labels still read', jsonRequest('POST', '/restrict/headers/1', BODY, [['X-Tenant', 'acme'], ['X-Secret', 's']])),
  c('no record', 'every part restricted: no record', jsonRequest('POST', '/restrict/all/1', BODY)),
  c('restrict', 'no rule but all: everything captured', jsonRequest('PUT', '/open/1', BODY)),
  c('sample', 'sample 0: bodies not kept, sampled false', jsonRequest('POST', '/sample/zero/1', BODY)),
  c('sample', 'sample 1 (a later rule) wins over sample 0', jsonRequest('POST', '/sample/zero/always/1', BODY)),
  c('keep_errors', 'a 500 is kept with sample 0', jsonRequest('POST', '/sample/errors/1', BODY), jsonResponse({ error: 'boom' }, 500)),
  c('keep_errors', 'a 503 is kept', request('GET', '/sample/errors/2'), jsonResponse({ error: 'down' }, 503)),
  c('keep_errors', 'a 404 is not kept', request('GET', '/sample/errors/3'), jsonResponse({ error: 'missing' }, 404)),
  c('keep_errors', 'a 200 is not kept', jsonRequest('POST', '/sample/errors/4', BODY)),
  c('sample', 'sample 0 on a 500 without keep_errors', request('GET', '/sample/zero/5'), jsonResponse({ error: 'boom' }, 500)),
  c('labels', 'label values from headers, any spelling of the name', request('GET', '/labels/1', [['x-tenant', 'acme'], ['X-TEAM', 'blue']])),
  c('labels', 'a repeated label header gives its first value', request('GET', '/labels/2', [['X-Tenant', 'first'], ['X-Tenant', 'second']])),
  c('labels', 'an absent label header leaves the label out', request('GET', '/labels/3', [['X-Team', 'red']])),
  c('labels', 'a label read from a redacted header holds the marker', request('GET', '/labels/secret/1', [['X-Secret', 'hunter2'], ['X-Tenant', 'acme']])),
  c('labels', 'the same label name in a later rule takes its source', request('GET', '/labels/later/1', [['X-Tenant', 'outer'], ['X-Other-Tenant', 'inner']])),
  c('labels', 'labels when headers are restricted', request('GET', '/restrict/headers/2', [['X-Team', 'green']])),
  c('meter', 'tokens from the response', jsonRequest('POST', '/meter/1', { usage: { total_tokens: 7 } }), jsonResponse({ usage: { total_tokens: 42, prompt_tokens: 40 } })),
  c('meter', 'tokens from the request when the response has none', jsonRequest('POST', '/meter/2', { usage: { total_tokens: 7 } }), jsonResponse({ nothing: true })),
  c('meter', 'a negative or non-number count is not read', jsonRequest('POST', '/meter/3', { usage: { total_tokens: -1 } }), jsonResponse({ usage: { total_tokens: '12' } })),
  c('meter', 'a fractional count is read as written', request('GET', '/meter/4'), jsonResponse({ usage: { total_tokens: 2.5 } })),
  c('meter', 'tokens are read even when bodies are not kept (sample 0)', request('GET', '/meter/unsampled/1'), jsonResponse({ usage: { total_tokens: 9 } })),
  c('meter', '$.**.tokens reads the first in document order', request('GET', '/meter/deep/1'), jsonResponse({ a: [{ x: 1 }, { tokens: 11 }], tokens: 99 })),
  c('meter', 'a count inside a redacted value is not read', request('GET', '/meter/redacted/1'), jsonResponse({ usage: { total_tokens: 5 } })),
  c('meter', 'no JSON body: no tokens', request('GET', '/meter/5'), OK()),
];
