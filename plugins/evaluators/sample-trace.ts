import type { PersistedTrace } from '@vigil/plugin-sdk';

/**
 * The trace a custom function is tried on when saved and the project has no trace yet: the shape of a stored trace
 * (as `GET /api/v1/traces/:id` answers it), with a question and its answer.
 */
export function sampleTrace(projectId: string): PersistedTrace {
  const created = Date.UTC(2025, 0, 1);
  return {
    id: '00000000-0000-4000-8000-000000000000', created_at: created, project_id: projectId, model: 'gpt-4o-mini', status: 'ok',
    latency_ms: 420, cost_usd: 0.00012, template: null, version: null,
    trace: {
      id: '00000000-0000-4000-8000-000000000000', created_at: new Date(created).toISOString(), model: 'gpt-4o-mini', provider: 'openai',
      name: 'sample', status: 'ok', error: null, start_time: null, latency_ms: 420, tokens: { input: 24, output: 8, total: 32 },
      cost_usd: 0.00012, cost_estimated: true,
      input: [{ role: 'system', content: 'Answer in one sentence.' }, { role: 'user', content: 'What is the capital of France?' }],
      output: { role: 'assistant', content: 'Paris is the capital of France.' },
      prompt_template: null, user_id: null, session_id: null, tags: [], metadata: { expected: 'Paris' },
    },
  };
}
