// JSON paths over bodies (`$.a.b`, `$.*.x`, `$.**.x`, arrays, quoted keys, the whole body), under the `json` config.
// Bodies keep their own text: whitespace, escapes and number spellings are part of what is compared.
import { jsonRequest, jsonResponse, type CorpusCase } from './case-model.js';

const config = 'json';
const family = 'json paths';

function c(name: string, target: string, requestBody: unknown, responseBody: unknown = { ok: true }): CorpusCase {
  return { name: `json paths: ${name}`, family, config, request: jsonRequest('POST', target, requestBody), response: jsonResponse(responseBody) };
}

export const jsonCases = (): CorpusCase[] => [
  c('$.password and $.a.b redact exact paths', '/json/exact/1', { password: 'p', a: { b: 'secret', c: 'kept' }, b: 'top-level b kept' }, { password: 'p2', a: { b: { nested: true } } }),
  c('$.a.b leaves a.b inside an array alone', '/json/exact/2', { a: [{ b: 'in array' }] }),
  c('$.password redacts a whole object value', '/json/exact/3', { password: { old: 'x', new: 'y' } }),
  c('$.password redacts null, numbers and booleans', '/json/exact/4', { password: null, a: { b: 12.5 } }, { password: false }),
  c('a repeated key is redacted at every occurrence', '/json/exact/5', '{"password":"one","password":"two"}'),
  c('whitespace and escapes of an untouched body are kept', '/json/exact/6', '{ "keep" : "caf\\u00e9",\n  "n": 1.50e+2 ,"password" : "x" }'),
  c('numbers are kept as written (big integers, exponents, -0)', '/json/exact/7', '{"big":12345678901234567890,"exp":1E400,"neg":-0,"frac":0.10}'),
  c('integer-like keys keep their order in the body', '/json/exact/8', '{"2":"b","1":"a","password":"x"}'),
  c('non-ASCII text and an escaped key', '/json/exact/9', '{"pass\\u0077ord":"hidden by its escaped name","名前":"ада","emoji":"😀"}'),
  c('an escaped slash and control escapes', '/json/exact/10', '{"url":"a\\/b","ctl":"\\u0001\\b\\f\\n\\r\\t","password":"\\"q\\""}'),
  c('$.*.x redacts x one level down', '/json/star/1', { a: { x: 1, y: 2 }, b: { x: [1, 2] }, x: 'top-level x kept' }),
  c('$.*.x reaches array elements', '/json/star/2', { list: [{ x: 'first' }, { x: 'second', z: 0 }] }),
  c('$.*.x not two levels down', '/json/star/3', { a: { b: { x: 'deep kept' } } }),
  c('$.**.card at every depth, the top level included', '/json/deep/1', { card: 'top', a: { card: 'one', b: { card: 'two', c: [{ card: 'three' }] } } }),
  c('$.**.card in the response too', '/json/deep/2', { none: true }, { data: { items: [{ card: '4111111111111111' }, { name: 'x' }] } }),
  c('$.**.card on a top-level array', '/json/deep/3', [{ card: 1 }, [{ card: 2 }]]),
  c('$.items.*.card, $.list[1], $.matrix.*.*.v', '/json/arrays/1', { items: [{ card: 'a' }, { card: 'b', other: 'kept' }], list: ['zero', 'one', 'two'], matrix: [[{ v: 1 }, { v: 2 }], [{ w: 3 }]] }),
  c('$.items.*.card on an object of items', '/json/arrays/2', { items: { first: { card: 'a' } }, list: { 1: 'key one is not index 1' } }),
  c("$['odd.key'] and $['a b'].c", '/json/quoted/1', { 'odd.key': 'hidden', odd: { key: 'kept' }, 'a b': { c: 'hidden', d: 'kept' } }),
  c('$ redacts the whole body', '/json/whole/1', { anything: 'at all' }, [1, 2, 3]),
  c('$ on a scalar body', '/json/whole/2', '"just a string"', 42),
  c('$.a.**.b.* combined', '/json/combined/1', { a: { b: { x: 1, y: 2 }, deeper: { b: ['p', 'q'] } }, b: { z: 'kept' } }),
  c('a JSON string document where $.password applies is kept', '/json/exact/12', '"a JSON string, not an object"'),
  c('an empty object and an empty array', '/json/deep/4', {}, []),
  c('a body with only whitespace around', '/json/exact/11', '  \n {"password":"x"} \n '),
];
