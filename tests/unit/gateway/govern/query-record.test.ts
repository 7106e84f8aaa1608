import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { queryToRecord } from '../../../../gateway/govern/query-record.js';

test('no query, an empty query and a fragment give the expected record', () => {
  assert.equal(queryToRecord('/a', new Set()), {});
  assert.equal(queryToRecord('/a?', new Set()), {});
  assert.equal(queryToRecord('/a?x=1#frag=2', new Set()), { x: '1' });
});

test('names and values are decoded; + is a space; a malformed escape is kept', () => {
  assert.equal(queryToRecord('/a?q=a+b%20c&n%61me=v&bad=%zz&empty=&flag', new Set()), {
    q: 'a b c', name: 'v', bad: '%zz', empty: '', flag: '',
  });
});

test('repetitions become arrays; redaction covers every repetition and any case of the name', () => {
  assert.equal(queryToRecord('/a?token=1&x=1&token=2&TOKEN=3&%54oken=4&x=2', new Set(['token'])), {
    token: ['[REDACTED]', '[REDACTED]'], x: ['1', '2'], TOKEN: '[REDACTED]', Token: '[REDACTED]',
  });
});

test('a value holding = is kept whole', () => {
  assert.equal(queryToRecord('/a?sig=a=b==', new Set()), { sig: 'a=b==' });
});

test.run();
