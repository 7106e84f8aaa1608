// Example WASM policy: redact every JSON body field whose value looks like a payment card number.
//
//   vigil policy build examples/policies/card-numbers.ts     # -> examples/policies/card-numbers.wasm
//
// and in the policy file, on a rule:  wasm: ./card-numbers.wasm
//
// A value counts as a card number when, after removing single spaces or dashes between digit groups, it is
// 12 to 19 digits whose issuer prefix allows that length, and the Luhn checksum holds. Checking prefix and length
// before Luhn keeps 13-digit millisecond timestamps (1700000000000) and order numbers from matching: about one
// random digit string in ten passes Luhn alone.
import { Decision, PolicyView, runPolicy } from "@vigil/plugin-sdk/assembly";

// Digits of the value under test. One buffer for the whole batch: no allocation per field.
const digits = new StaticArray<i32>(19);

/**
 * Reads `value` into `digits` when it is written as a card number would be: digits, optionally in groups
 * separated by single spaces or dashes, 12 to 19 digits in all. Returns the digit count, or 0.
 */
function readCardDigits(value: string): i32 {
  const n = value.length;
  if (n < 12 || n > 23) return 0;
  let count = 0;
  let previousWasSeparator = true; // no leading separator
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (count == 19) return 0;
      unchecked(digits[count++] = c - 0x30);
      previousWasSeparator = false;
    } else if ((c == 0x20 || c == 0x2d) && !previousWasSeparator) {
      previousWasSeparator = true;
    } else {
      return 0;
    }
  }
  if (previousWasSeparator) return 0; // trailing separator
  return count >= 12 ? count : 0;
}

/** The number formed by the first `length` digits. */
function prefix(length: i32): i32 {
  let p = 0;
  for (let i = 0; i < length; i++) p = p * 10 + unchecked(digits[i]);
  return p;
}

/** Whether the issuer identified by the leading digits issues numbers of this length. */
function issuerAllows(len: i32): bool {
  const p1 = prefix(1);
  const p2 = prefix(2);
  const p3 = prefix(3);
  const p4 = prefix(4);
  const p6 = prefix(6);
  if (p1 == 4) return len == 13 || len == 16 || len == 19; // Visa
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return len == 16; // Mastercard
  if (p2 == 34 || p2 == 37) return len == 15; // American Express
  if (p4 == 6011 || p2 == 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) {
    return len >= 16 && len <= 19; // Discover
  }
  if (p4 >= 3528 && p4 <= 3589) return len >= 16 && len <= 19; // JCB
  if (p2 == 62) return len >= 16 && len <= 19; // UnionPay
  if ((p3 >= 300 && p3 <= 305) || p2 == 36 || p2 == 38 || p2 == 39) return len >= 14 && len <= 19; // Diners Club
  if (p2 == 50 || (p2 >= 56 && p2 <= 58) || p2 == 67) return len >= 12 && len <= 19; // Maestro
  return false;
}

function luhnValid(len: i32): bool {
  let sum = 0;
  let double = false;
  for (let i = len - 1; i >= 0; i--) {
    let d = unchecked(digits[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 == 0;
}

export function looksLikeCardNumber(value: string, isNumber: bool): bool {
  const len = readCardDigits(value);
  if (len == 0) return false;
  // A JSON number is only a card number when it is a plain digit run (no sign, fraction, exponent or separator).
  if (isNumber && len != value.length) return false;
  return issuerAllows(len) && luhnValid(len);
}

function decideOne(view: PolicyView): Decision {
  const decision = new Decision();
  const field = view.bodyFieldCursor();
  while (field.next()) {
    // Most fields are names, ids, prices: skip them on their raw bytes, without decoding the value.
    const length = field.valueByteLength;
    const first = field.valueByte(0);
    if (length < 12 || length > 23 || first < 0x30 || first > 0x39) continue;
    if (looksLikeCardNumber(field.value, field.isNumber)) decision.redactJsonField(field.path);
  }
  return decision;
}

export function decide(): i32 {
  return runPolicy(decideOne);
}
