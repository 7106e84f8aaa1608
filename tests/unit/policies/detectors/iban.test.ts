import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findIbans, ibanChecksumValid } from '../../../../policies/detectors/iban.js';

test('valid IBANs are found, compact or in groups of four', () => {
  for (const iban of ['DE89370400440532013000', 'GB82WEST12345698765432', 'FR1420041010050500013M02606', 'NL91ABNA0417164300']) {
    assert.ok(ibanChecksumValid(iban), iban);
    assert.equal(findIbans(`to ${iban}.`), [{ start: 3, end: 3 + iban.length }], iban);
  }
  assert.equal(findIbans('IBAN DE89 3704 0044 0532 0130 00 THANKS'), [{ start: 5, end: 32 }]);
});

test('a wrong checksum, an unknown country or a wrong length does not match', () => {
  assert.equal(findIbans('DE89370400440532013001'), []);
  assert.equal(findIbans('ZZ89370400440532013000'), []);
  assert.equal(findIbans('DE8937040044053201300'), []);
  assert.equal(findIbans('DE89370400440532013000X'), [], 'followed by more characters: not this IBAN');
});

test.run();
