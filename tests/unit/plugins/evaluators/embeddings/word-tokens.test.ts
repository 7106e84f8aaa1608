import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookup, words } from '../../../../../plugins/evaluators/embeddings/word-tokens.js';

test('words: lower-cased, punctuation split off, apostrophes and hyphens kept inside a word', () => {
  assert.equal(words("France's capital city is Paris."), ["france's", 'capital', 'city', 'is', 'paris']);
  assert.equal(words('France’s (curly) “quoted”, state-of-the-art!'), ["france's", 'curly', 'quoted', 'state-of-the-art']);
  assert.equal(words("rock 'n' roll -- don't"), ['rock', 'n', 'roll', "don't"]);
  assert.equal(words('e.g. U.S. 3.5'), ['e.g', 'u.s', '3.5']);
  assert.equal(words(''), []);
  assert.equal(words('  ... !!! '), []);
});

test('words: Unicode letters of any script, composed and decomposed alike', () => {
  assert.equal(words('Café CAFE\u0301 Straße ΑΘΗΝΑ 東京 naïve'), ['café', 'café', 'straße', 'αθηνα', '東京', 'naïve']);
});

test('lookup: the word, else its clitic split, else its parts, each also without diacritics', () => {
  const index = new Map([['france', 0], ['capital', 1], ['do', 2], ['state', 3], ['art', 4], ['cafe', 5], ['e-mail', 6], ["'s", 7]]);
  assert.equal(lookup('capital', index), [1]);
  assert.equal(lookup("france's", index), [0, 7]);
  assert.equal(lookup("don't", index), [2]);
  assert.equal(lookup('state-of-the-art', index), [3, 4]);
  assert.equal(lookup('e-mail', index), [6]);
  assert.equal(lookup('café', index), [5]);
  assert.equal(lookup('bananas', index), []);
  assert.equal(lookup("o'clock", index), []);
});

test.run();
