// What a session's replay shows of each turn. Chat applications send the whole conversation so far as each call's
// input, so turn n's input starts with turn n−1's input and output: the replay shows only what is new in it, and the
// whole input when it does not start that way (a trimmed history, a new system prompt).
import { toConversation, type ChatMessage } from './chat-messages.js';

export interface ReplayTurn {
  /** The input's messages this turn added; null when the input is not a conversation (the JSON is shown). */
  added: ChatMessage[] | null;
  /** Messages of the input shown in earlier turns, left out here. */
  repeated: number;
  output: ChatMessage[] | null;
}

const same = (a: ChatMessage, b: ChatMessage) => a.role === b.role && a.text === b.text;

/** The turns of a replay, from the traces' inputs and outputs, oldest first. */
export function replayTurns(turns: readonly { input: unknown; output: unknown }[]): ReplayTurn[] {
  let seen: ChatMessage[] = [];
  return turns.map((t) => {
    const input = toConversation(t.input, 'user');
    const output = toConversation(t.output, 'assistant');
    let repeated = 0;
    if (input && seen.length && seen.length < input.length && seen.every((m, i) => same(m, input[i]))) repeated = seen.length;
    seen = [...(input ?? []), ...(output ?? [])];
    return { added: input ? input.slice(repeated) : null, repeated, output };
  });
}
