import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JsonScanner, type JsonHandler } from '../../../../../plugins/evaluators/embeddings/json-scanner.js';

/** Rebuilds the document from the events, so that it can be compared with JSON.parse. */
function builder(): JsonHandler & { value(): unknown } {
  const stack: { container: any; key?: string }[] = [];
  let root: unknown;
  let done = false;
  const put = (v: unknown): void => {
    const top = stack[stack.length - 1];
    if (!top) { root = v; done = true; return; }
    if (Array.isArray(top.container)) top.container.push(v);
    else top.container[top.key!] = v;
  };
  return {
    open(kind) { const c = kind === 'object' ? {} : []; put(c); stack.push({ container: c }); done = false; },
    close() { stack.pop(); if (stack.length === 0) done = true; },
    key(name) { stack[stack.length - 1].key = name; },
    string(v) { put(v); },
    number(b, s, e) { put(Number(b.toString('latin1', s, e))); },
    literal(v) { put(v); },
    value() { assert.ok(done, 'document complete'); return root; },
  };
}

function scan(chunks: Buffer[]): unknown {
  const h = builder();
  const s = new JsonScanner(h);
  for (const c of chunks) s.write(c);
  s.end();
  return h.value();
}

const documents = [
  '{"precision":8,"size":3,"words":["the","café","\\"q\\"","a\\\\b","\\u00e9t\\u00e9"],"vectors":{"the":[0.1,-2.5e-3,1E2],"é":[]},"unk":[true,false,null]}',
  '[]', '{}', '[[],{},[{}]]', '"just a string"', '-12.5e+3', 'true', 'null',
  ' \n\t{ "a" : [ 1 , 2 ] , "b" : { "c" : "😀 snow ☃" } } \n',
];

test('every document reads as JSON.parse reads it, whole and cut at every byte', () => {
  for (const doc of documents) {
    const bytes = Buffer.from(doc, 'utf8');
    const expected = JSON.parse(doc);
    assert.equal(scan([bytes]), expected, doc);
    for (let cut = 1; cut < bytes.length; cut++) {
      assert.equal(scan([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `${doc} cut at ${cut}`);
    }
    assert.equal(scan([...bytes].map((b) => Buffer.from([b]))), expected, `${doc} byte by byte`);
  }
});

test('structural errors throw with the byte offset', () => {
  const bad: [string, RegExp][] = [
    ['{"a":1,}', /a key must be a string at byte 7/],
    ['[1,]', /where a value belongs at byte 3/],
    ['{"a" 1}', /expected ':' after a key at byte 5/],
    ['[1 2]', /expected ',' or a closing bracket/],
    ['[1}', /unexpected '}'/],
    ['{"a":1}]', /data after the end of the document|unexpected/],
    ['{"a":[1,2]', /ends early/],
    ['"unterminated', /ends inside a token/],
    ['[tru]', /unknown literal|ends inside/],
    ['{"a":"\\x"}', /invalid escape/],
    ['', /ends early/],
  ];
  for (const [doc, message] of bad) {
    assert.throws(() => scan([Buffer.from(doc)]), message, doc);
  }
});

test('a token longer than 1 MiB is refused rather than carried without bound', () => {
  const s = new JsonScanner(builder());
  s.write(Buffer.from('["'));
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  assert.throws(() => { for (let i = 0; i < 5; i++) s.write(chunk); }, /longer than/);
});

test('nesting deeper than 256 is refused', () => {
  assert.throws(() => scan([Buffer.from('['.repeat(300))]), /nesting deeper/);
});

test.run();
