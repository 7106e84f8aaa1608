// The answers of the prompt registry's routes: the public API, the dashboard's twins, and the Langfuse-compatible v2.
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { LABEL_PATTERN } from './label-name.js';
import { MAX_PROMPT_CHARS } from './prompt-text.js';

const text: JsonSchema = { type: 'string' };
const isoTime: JsonSchema = { type: 'string', format: 'date-time' };
const version: JsonSchema = { type: 'integer', minimum: 1 };
const nullableVersion: JsonSchema = { type: ['integer', 'null'], minimum: 1 };
const label: JsonSchema = { type: 'string', pattern: LABEL_PATTERN };

const chatEntry: JsonSchema = {
  anyOf: [
    closedObject({ role: text, content: text }, { title: 'PromptChatMessage' }),
    closedObject({ type: { const: 'placeholder' }, name: text }, { title: 'PromptChatPlaceholder' }),
  ],
};

export const keptPromptSchema = closedObject({
  name: text,
  version,
  hash: { type: 'string', description: 'SHA-256 (hex) of the normalised text as sent: the version\'s identity.' },
  type: { enum: ['text', 'chat'] },
  text: { type: 'string', description: 'The normalised text as kept (the project\'s detectors applied); a chat prompt\'s messages as JSON.' },
  messages: { anyOf: [{ type: 'null' }, { type: 'array', items: chatEntry }], description: 'A chat prompt\'s messages; null for text.' },
  labels: { type: 'array', items: text, description: 'Labels naming this version; `latest` when it is the newest.' },
  config: { description: 'The JSON config given when the version was created; null when none.' },
  commit_message: { type: ['string', 'null'] },
  created_by: { type: 'string', description: 'Who created it; `detected` for a version first seen in traffic.' },
  created_at: isoTime,
}, { title: 'KeptPrompt', description: 'One prompt version as applications fetch it.' });

export const createdPromptSchema = closedObject({
  created: { type: 'boolean', description: 'False when the text was a version already (detected or created): that version is answered.' },
  prompt: keptPromptSchema,
}, { title: 'CreatedPrompt' });

const labelRow = closedObject({ label: text, version, updated_at: isoTime, updated_by: text }, { title: 'PromptLabel' });
const labelMove = closedObject({
  label: text, version: { ...nullableVersion, description: 'null: the label was removed.' }, previous_version: nullableVersion, at: isoTime, actor: text,
}, { title: 'PromptLabelMove' });

export const promptLabelsSchema = closedObject({
  name: text,
  newest: version,
  labels: { type: 'array', items: labelRow, description: 'The labels a team set (`latest` is the newest version, not listed).' },
  history: { type: 'array', items: labelMove, description: 'Moves of the labels, newest first, at most 200.' },
}, { title: 'PromptLabels' });

export const labelMoveSchema = closedObject({
  name: text, label: text, version: nullableVersion, previous_version: nullableVersion,
  changed: { type: 'boolean', description: 'False when the label already named that version (no history row is added).' },
}, { title: 'PromptLabelChange' });

export const createBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'prompt'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 256 },
    type: { enum: ['text', 'chat'], default: 'text' },
    prompt: { description: `The text (at most ${MAX_PROMPT_CHARS.toLocaleString('en-US')} characters), or for \`type: "chat"\` an array of { role, content } messages and { type: "placeholder", name }.` },
    config: { description: 'Any JSON (model, temperature…), at most 65,536 characters.' },
    labels: { type: 'array', items: label, maxItems: 32, uniqueItems: true },
    commit_message: { type: ['string', 'null'], maxLength: 1000 },
  },
};

export const moveBody: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['version'], properties: { version },
};

export const pickQuery: JsonSchema = {
  type: 'object',
  properties: {
    label: { type: 'string', maxLength: 64, description: 'Default `production` when no version is asked for; `latest` is the newest version.' },
    version: { type: 'integer', minimum: 1, maximum: 999_999_999 },
  },
};

/** Langfuse's prompt shape (its API's `Prompt`), as `langfuse.getPrompt()` and `@langfuse/client`'s `prompt.get()` read it. */
export const langfusePromptSchema = closedObject({
  id: text,
  name: text,
  version,
  type: { enum: ['text', 'chat'] },
  prompt: { anyOf: [text, { type: 'array', items: { type: 'object' } }] },
  config: {},
  labels: { type: 'array', items: text },
  tags: { type: 'array', items: text, description: 'Always empty: Vigil keeps no prompt tags.' },
  commitMessage: { type: ['string', 'null'] },
  createdAt: isoTime,
  updatedAt: isoTime,
  createdBy: text,
  projectId: text,
  isActive: { type: 'boolean', description: 'Langfuse\'s older flag: labelled `production`.' },
  resolutionGraph: { type: 'null' },
}, { title: 'LangfusePrompt' });

export const langfuseCreateBody: JsonSchema = {
  type: 'object',
  // The SDKs send what their callers give: extra keys are ignored, as Langfuse does.
  required: ['name', 'prompt'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 256 },
    type: { enum: ['text', 'chat'] },
    prompt: {},
    config: {},
    labels: { type: 'array', items: { type: 'string' }, maxItems: 32 },
    tags: { type: 'array', items: { type: 'string' } },
    commitMessage: { type: ['string', 'null'], maxLength: 1000 },
    isActive: { type: 'boolean' },
  },
};
