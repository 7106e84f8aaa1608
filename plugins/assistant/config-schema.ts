import type { JsonSchema } from '@vigil/plugin-sdk';
import { DETECTOR_KINDS, type DetectorKind } from '../../policies/detectors/types.js';

/** What is masked by default: everything the detectors know but email addresses, which logs need to make sense. */
export const DEFAULT_REDACT: readonly DetectorKind[] = DETECTOR_KINDS.filter((k) => k !== 'email');

/** The `assistant:` section: limits only. The provider itself is chosen in the dashboard and stored (key encrypted). */
export interface AssistantConfig {
  /** Until the provider's first token (connecting included); past it the turn ends with "no answer from … in N s". */
  first_token_timeout: string | number;
  /** The most a whole answer may take. */
  total_timeout: string | number;
  /** Bytes of answer kept; past it the upstream request is aborted and the answer says it was cut. */
  max_answer_bytes: number;
  /** Bytes of page context one turn may carry (all items together). */
  max_context_bytes: number;
  /** Turns streaming at once, on the whole instance. */
  max_concurrent_turns: number;
  /** Detector kinds masked in every prompt and context before it is sent. */
  redact: DetectorKind[];
  /** The key provider API keys are encrypted with; default `<data_dir>/plugins/assistant/secrets.key`. */
  key_file?: string;
}

const duration = (description: string, dflt: string, max: string): JsonSchema => ({
  type: ['string', 'integer'], format: 'duration', formatMinimum: '1s', formatMaximum: max, default: dflt, description,
});

export const assistantConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'The assistant panel (Ctrl+I): limits of each chat turn. The provider is set in the dashboard.',
  properties: {
    first_token_timeout: duration('How long the provider may take to connect and send its first token; the turn then ends with "no answer from <endpoint> in N s".', '20s', '5m'),
    total_timeout: duration('The most one answer may take, first token to last; the upstream request is aborted then.', '2m', '30m'),
    max_answer_bytes: { type: 'integer', minimum: 1024, maximum: 1048576, default: 65536, description: 'Bytes of one answer kept; past it the upstream request is aborted and the answer is marked cut.' },
    max_context_bytes: { type: 'integer', minimum: 1024, maximum: 262144, default: 32768, description: 'Bytes of page context (findings, log lines) one turn may carry.' },
    max_concurrent_turns: { type: 'integer', minimum: 1, maximum: 64, default: 4, description: 'Answers streaming at once on this instance; one more is refused with 429.' },
    redact: {
      type: 'array', uniqueItems: true, items: { enum: [...DETECTOR_KINDS] }, default: [...DEFAULT_REDACT],
      description: 'Kinds of values masked in every message and context item before it leaves the host (the governance detectors). Default: all but email.',
    },
    key_file: { type: 'string', minLength: 1, description: 'The key provider API keys are encrypted with (mode 0600); relative to the config file. Default <data_dir>/plugins/assistant/secrets.key.' },
  },
};
