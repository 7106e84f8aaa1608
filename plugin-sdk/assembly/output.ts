import { Host } from "@extism/as-pdk";
import { input_length } from "@extism/as-pdk/lib/env";

// @extism/as-pdk's Host.outputString sizes its output in UTF-16 units, so any non-ASCII text comes out truncated.
// These helpers always hand the host UTF-8 bytes with their byte length.

/**
 * Input the host copied straight into guest memory before the call (see `vigil_stage_input` in exports.ts).
 * Reading input through Extism costs one host call per 8 bytes, which dominated a batch's cost.
 */
let staged: Uint8Array | null = null;

/** Reserves guest memory for the next call's input; returns where the host writes it. */
export function stageInput(length: i32): usize {
  const buffer = new Uint8Array(length);
  staged = buffer;
  return buffer.dataStart;
}

/** The call's input bytes: the staged copy when the host provided one of the right size, else read via Extism. */
export function inputBytes(): Uint8Array {
  const buffer = staged;
  staged = null;
  if (buffer != null && <u64>buffer.length == input_length()) return buffer;
  return Host.input();
}

/** The call's input, decoded from UTF-8. */
export function inputText(): string {
  return String.UTF8.decode(inputBytes().buffer);
}

/** Writes `text` as the call's output, encoded as UTF-8. */
export function outputText(text: string): void {
  Host.output(Uint8Array.wrap(String.UTF8.encode(text)));
}

/** Writes an already encoded JSON text as the call's output (UTF-8). */
export function outputJson(json: string): void {
  outputText(json);
}
