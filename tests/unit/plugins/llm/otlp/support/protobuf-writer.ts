// Test support: a few lines of protobuf wire encoding, to build bodies no real exporter would send (unknown fields,
// groups, hostile lengths, deep nesting).
export const varint = (value: number | bigint): number[] => {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) { out.push(Number(v & 0x7fn) | 0x80); v >>= 7n; }
  out.push(Number(v));
  return out;
};
const utf8 = (s: string) => [...new TextEncoder().encode(s)];

export const tag = (field: number, wire: number): number[] => varint(field * 8 + wire);
export const len = (field: number, payload: number[] | Uint8Array): number[] => [...tag(field, 2), ...varint(payload.length), ...payload];
export const str = (field: number, s: string): number[] => len(field, utf8(s));
export const vint = (field: number, v: number | bigint): number[] => [...tag(field, 0), ...varint(v)];
export const fixed64 = (field: number, v: bigint): number[] => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return [...tag(field, 1), ...b];
};
export const bytes = (...parts: number[][]): Uint8Array => Uint8Array.from(parts.flat());

/** KeyValue { key, value: AnyValue { string_value } }. */
export const kvString = (field: number, key: string, value: string): number[] => len(field, [...str(1, key), ...len(2, str(1, value))]);

/** A request with one span carrying `spanFields` (trace and span ids added), wrapped in scope and resource spans. */
export const requestWithSpan = (spanFields: number[]): Uint8Array => bytes(len(1, len(2, len(2, [
  ...len(1, Array(16).fill(0xab)), ...len(2, Array(8).fill(0xcd)), ...spanFields,
]))));
