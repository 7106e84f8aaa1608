import { closedObject, nonJsonBody, type JsonSchema } from '@vigil/plugin-sdk';
import { DETECTOR_KINDS } from '../../policies/detectors/types.js';
import { MAX_PROPOSALS } from './proposals.js';

export const PROVIDERS = ['openai', 'anthropic', 'ollama', 'cli'] as const;

const nullableText: JsonSchema = { type: ['string', 'null'] };

export const llmView = closedObject({
  configured: { type: 'boolean', description: 'false: no provider is set; the panel offers the form.' },
  provider: { enum: [...PROVIDERS, null], description: 'openai: any OpenAI-compatible endpoint; anthropic; ollama: a local model server; cli: a local command.' },
  model: nullableText,
  base_url: nullableText,
  command: { type: ['array', 'null'], items: { type: 'string' }, description: 'cli: the argv (no shell).' },
  key_set: { type: 'boolean', description: 'Whether an API key is saved (encrypted); the key itself is never sent back.' },
  limits: closedObject({
    first_token_timeout_ms: { type: 'integer' }, total_timeout_ms: { type: 'integer' }, max_answer_bytes: { type: 'integer' },
    max_context_bytes: { type: 'integer' },
  }, { title: 'AssistantLimits' }),
  redact: { type: 'array', items: { enum: [...DETECTOR_KINDS] }, description: 'Kinds of values masked before anything is sent.' },
  can_configure: { type: 'boolean', description: 'Whether the caller may change the settings (owners).' },
}, { title: 'AssistantSettings' });

export const llmConfigInput = closedObject({
  provider: { enum: [...PROVIDERS, 'none'], description: '`none` forgets the settings (and the key).' },
  model: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f]+$' },
  base_url: { type: 'string', minLength: 8, maxLength: 2048, description: 'http(s) base of the API; default per provider (api.openai.com/v1, api.anthropic.com, 127.0.0.1:11434).' },
  command: { type: 'array', minItems: 1, maxItems: 32, items: { type: 'string', minLength: 1, maxLength: 1024 }, description: 'cli: the program and its arguments, run without a shell; the prompt goes to its stdin.' },
  api_key: { oneOf: [{ type: 'string', minLength: 1, maxLength: 4096 }, { type: 'null' }], description: 'Stored encrypted, never sent back. Absent: keep the saved key; null: forget it.' },
}, { title: 'AssistantSettingsInput', optional: ['model', 'base_url', 'command', 'api_key'] });

export const llmTestResult = closedObject({
  ok: { type: 'boolean' },
  outcome: { enum: ['done', 'cut', 'cancelled', 'failed'] },
  answer: { type: 'string', description: 'The first 200 characters of the answer.' },
  message: { type: ['string', 'null'], description: 'Why it failed or was cut, in plain words.' },
  endpoint: { type: 'string' },
  duration_ms: { type: 'integer' },
}, { title: 'AssistantTestResult' });

const message = closedObject({
  role: { enum: ['user', 'assistant'] },
  content: { type: 'string', minLength: 1, maxLength: 32768 },
}, { title: 'AssistantMessage' });

const contextItem = closedObject({
  kind: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,31}$', description: 'What it is: health, logs, unit, page.' },
  title: { type: 'string', minLength: 1, maxLength: 200 },
  content: { type: 'string', minLength: 1, maxLength: 262144 },
}, { title: 'AssistantContextItem' });

export const chatInput = closedObject({
  messages: { type: 'array', minItems: 1, maxItems: 40, items: message, description: 'The conversation so far, oldest first, ending with the user\'s question.' },
  context: { type: 'array', maxItems: 8, items: contextItem, description: 'What the page offered and the user kept; at most assistant.max_context_bytes together.' },
}, { title: 'AssistantChatInput', optional: ['context'] });

export const healthReportInput = closedObject({
  score: { type: 'integer', minimum: 0, maximum: 100 },
  verdict: { type: 'string', maxLength: 40 },
  findings: {
    type: 'array', maxItems: 64,
    items: closedObject({
      severity: { enum: ['critical', 'warning', 'info'] }, title: { type: 'string', maxLength: 300 }, detail: { type: 'string', maxLength: 2000 },
    }, { title: 'AssistantHealthFinding' }),
  },
}, { title: 'AssistantHealthReportInput', optional: ['score', 'verdict'] });

/** The events of a streamed answer, for the listing (the body itself is text/event-stream). */
export const STREAM_DESCRIPTION = 'text/event-stream. `start` {provider, model, masked}: masked is how many values were replaced by [REDACTED] before sending; ' +
  '`delta` {text}: the next piece of the answer; `proposal` {action, target, reason, label, page, path, source}: a proposed action (at most ' +
  `${MAX_PROPOSALS}), shown as a card that opens the page; nothing runs; ` +
  '`done` {outcome: done|cut|cancelled|failed, message, bytes}: the last event.';

const proposal = closedObject({
  action: { type: 'string' },
  target: { type: ['string', 'null'], description: 'The unit, log query or process; null for an action without one.' },
  reason: { type: ['string', 'null'] },
  label: { type: 'string', description: 'What the card says, e.g. "Restart nginx.service".' },
  page: { type: 'string', description: 'The dashboard page it is done on.' },
  path: { type: 'string', description: 'The address that opens that page with the target filled in.' },
  source: { type: 'string', description: 'The JSON text of the block as the model wrote it, so the panel puts the card in its place.' },
}, { title: 'AssistantProposal' });

const event = (name: string, data: JsonSchema, title: string) => closedObject({ event: { const: name }, data }, { title });

/** One event of the stream, as `{event, data}`: `data` is the JSON on the event's `data:` line. */
export const streamEvent: JsonSchema = {
  title: 'AssistantStreamEvent',
  oneOf: [
    event('start', closedObject({
      provider: { type: 'string' }, model: { type: ['string', 'null'] },
      masked: { type: 'integer', description: 'Values replaced by [REDACTED] before sending.' },
    }, { title: 'AssistantStreamStart' }), 'AssistantStartEvent'),
    event('delta', closedObject({ text: { type: 'string' } }, { title: 'AssistantStreamDelta' }), 'AssistantDeltaEvent'),
    event('proposal', proposal, 'AssistantProposalEvent'),
    event('done', closedObject({
      outcome: { enum: ['done', 'cut', 'cancelled', 'failed'] }, message: { type: ['string', 'null'] }, bytes: { type: 'integer' },
    }, { title: 'AssistantStreamDone' }), 'AssistantDoneEvent'),
  ],
};

/** The answer of a chat turn and of the health report. */
export const ANSWER_STREAM = nonJsonBody('text/event-stream', STREAM_DESCRIPTION, streamEvent);
