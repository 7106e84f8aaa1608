import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cardIssuer, findCardNumbers, luhnValid } from '../../../../policies/detectors/card-number.js';

const valid: [string, string][] = [
  ['4111111111111111', 'visa'], ['4012888888881881', 'visa'], ['4222222222222', 'visa'],
  ['5555555555554444', 'mastercard'], ['5105105105105100', 'mastercard'], ['2223003122003222', 'mastercard'],
  ['378282246310005', 'amex'], ['371449635398431', 'amex'],
  ['6011111111111117', 'discover'], ['6011000990139424', 'discover'],
  ['30569309025904', 'diners'], ['38520000023237', 'diners'],
  ['3530111333300000', 'jcb'], ['3566002020360505', 'jcb'],
  ['6200000000000005', 'unionpay'], ['6759649826438453', 'maestro'],
];

test('valid cards of several issuers are found, with their issuer', () => {
  for (const [number, issuer] of valid) {
    assert.is(cardIssuer(number)?.name, issuer, number);
    assert.equal(findCardNumbers(`pay with ${number} now`), [{ start: 9, end: 9 + number.length }], number);
  }
});

test('grouped spellings are found: spaces or dashes, consistently', () => {
  assert.equal(findCardNumbers('4111 1111 1111 1111'), [{ start: 0, end: 19 }]);
  assert.equal(findCardNumbers('card: 3782-822463-10005.'), [{ start: 6, end: 23 }]);
  assert.equal(findCardNumbers('4111 1111-1111 1111'), [], 'mixed separators are not a card');
});

test('13-digit millisecond timestamps do not match, even when they pass Luhn', () => {
  assert.ok(luhnValid('1700000000004'), 'the fixture must pass Luhn for this test to mean anything');
  assert.equal(findCardNumbers('{"ts":1700000000004}'), []);
  assert.equal(findCardNumbers('1700000000004 1700000000012 1699999999999'), []);
});

test('Luhn-valid numbers with a prefix no issuer uses do not match', () => {
  for (const n of ['1234567812345670', '9000000000000001', '8100000000000']) {
    assert.ok(luhnValid(n), n);
    assert.equal(findCardNumbers(n), [], n);
  }
});

test('a right prefix with a wrong length or a failed Luhn does not match', () => {
  assert.equal(findCardNumbers('41111111111111'), [], 'visa has no 14-digit numbers');
  assert.equal(findCardNumbers('4111111111111112'), [], 'Luhn fails');
  assert.equal(findCardNumbers('37828224631000'), [], 'amex is 15 digits');
});

test('a card number is never a slice of a longer digit run', () => {
  assert.equal(findCardNumbers('94111111111111111'), []);
  assert.equal(findCardNumbers('41111111111111119'), []);
});

test('luhnValid rejects non-digits', () => {
  assert.not.ok(luhnValid('4111a11111111111'));
});

test.run();
