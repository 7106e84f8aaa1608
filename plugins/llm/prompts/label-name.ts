import { httpError } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';

/** Lowercase letters, digits, `_`, `-` and `.`, 1-64 characters: Langfuse's label alphabet, so its labels carry over. */
export const LABEL_PATTERN = '^[a-z0-9][a-z0-9_.-]{0,63}$';
const LABEL = new RegExp(LABEL_PATTERN);

/** The label Vigil keeps itself: always the newest version of a template, never stored, never moved. */
export const LATEST = 'latest';

/** What the labels default to when a client asks for none: Langfuse's default, so its SDKs fetch the same version. */
export const DEFAULT_LABEL = 'production';

/** 400 unless `label` is a label a team may set (`latest` is Vigil's). */
export function checkSettableLabel(label: string): string {
  if (!LABEL.test(label)) throw httpError(LlmErrors.PROMPT_LABEL, `${JSON.stringify(label)} is not a label: use 1-64 lowercase letters, digits, _, - and ., starting with a letter or digit`);
  if (label === LATEST) throw httpError(LlmErrors.PROMPT_LABEL, '"latest" always names the newest version; it cannot be set or moved');
  return label;
}
