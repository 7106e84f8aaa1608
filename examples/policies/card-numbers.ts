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

/** The digits of `value` when it is written as a card number would be, else "". */
function cardDigits(value: string): string {
  const n = value.length;
  if (n < 12 || n > 23) return "";
  let digits = "";
  let previousWasSeparator = true; // no leading separator
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      digits += String.fromCharCode(c);
      previousWasSeparator = false;
    } else if ((c == 0x20 || c == 0x2d) && !previousWasSeparator) {
      previousWasSeparator = true;
    } else {
      return "";
    }
  }
  if (previousWasSeparator) return ""; // trailing separator
  return digits.length >= 12 && digits.length <= 19 ? digits : "";
}

function prefix(digits: string, length: i32): i32 {
  return I32.parseInt(digits.substring(0, length));
}

/** Whether the issuer identified by the leading digits issues numbers of this length. */
export function issuerAllows(digits: string): bool {
  const len = digits.length;
  const p1 = prefix(digits, 1);
  const p2 = prefix(digits, 2);
  const p3 = prefix(digits, 3);
  const p4 = prefix(digits, 4);
  const p6 = prefix(digits, 6);
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

export function luhnValid(digits: string): bool {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 0x30;
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
  // A JSON number is only a card number when it is a plain digit run (no sign, fraction or exponent).
  const digits = isNumber ? (cardDigits(value) == value ? value : "") : cardDigits(value);
  return digits.length > 0 && issuerAllows(digits) && luhnValid(digits);
}

function decideOne(view: PolicyView): Decision {
  const decision = new Decision();
  const fields = view.bodyFields;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (looksLikeCardNumber(field.value, field.isNumber)) decision.redactJsonField(field.path);
  }
  return decision;
}

export function decide(): i32 {
  return runPolicy(decideOne);
}
