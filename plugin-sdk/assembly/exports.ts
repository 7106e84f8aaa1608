// Exports the host looks for. `vigil policy build` compiles this file as a second entry next to the policy, so
// policy authors never write these themselves.
import { stageInput } from "./output";

/** Called by the Vigil host before `decide`: reserve `length` bytes for the input and return their address. */
export function vigil_stage_input(length: i32): usize {
  return stageInput(length);
}
