// The answers of the sessions and users routes (sessions-routes.ts).
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { traceSchema } from './schemas.js';

const count: JsonSchema = { type: 'integer', minimum: 0 };
const isoTime: JsonSchema = { type: 'string', format: 'date-time' };
const usd: JsonSchema = { type: 'number', description: 'USD of the calls with a known cost.' };
const nullableNumber: JsonSchema = { type: ['number', 'null'] };
const range = { from: isoTime, to: isoTime };

const session = closedObject({
  session_id: { type: 'string' },
  user_id: { type: ['string', 'null'], description: 'The user of the session\'s traces (the greatest id when they differ).' },
  first_seen: isoTime,
  last_seen: isoTime,
  turns: count,
  errors: count,
  cost_usd: usd,
  total_tokens: count,
  latency_ms: { type: 'number', description: 'Summed latency of the turns that reported one.' },
  avg_latency_ms: nullableNumber,
}, { title: 'LlmSession' });

export const sessionPageSchema = closedObject({ data: { type: 'array', items: session }, total: count, limit: count, offset: count, ...range }, { title: 'LlmSessionPage' });

export const sessionReplaySchema = closedObject({
  session,
  turns: { type: 'array', items: traceSchema, description: 'The session\'s stored traces, oldest first.' },
  limit: count,
  offset: count,
  next_offset: { type: ['integer', 'null'], description: 'The offset of the next page of turns; null on the last.' },
  truncated: { type: 'boolean', description: 'The page holds fewer turns than `limit` because of their size.' },
}, { title: 'LlmSessionReplay' });

const userEval = closedObject({
  avg_score: nullableNumber,
  samples: count,
  failed: count,
  traces: { type: 'integer', minimum: 0, description: 'The user\'s latest traces whose eval results were read.' },
});

const user = closedObject({
  user_id: { type: 'string' },
  first_seen: isoTime,
  last_seen: isoTime,
  requests: count,
  sessions: count,
  errors: count,
  cost_usd: usd,
  total_tokens: count,
  avg_latency_ms: nullableNumber,
  eval: userEval,
}, { title: 'LlmUser' });

export const userPageSchema = closedObject({ data: { type: 'array', items: user }, total: count, limit: count, offset: count, ...range }, { title: 'LlmUserPage' });

export const userDetailSchema = closedObject({
  user,
  eval_by_definition: {
    type: 'array',
    items: closedObject({
      eval_definition_id: { type: 'string' }, name: { type: 'string' }, method: { type: 'string' }, avg_score: nullableNumber, samples: count, failed: count,
    }),
  },
  ...range,
}, { title: 'LlmUserDetail' });
