import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { langfuseKind, otlpSpanKind } from '../../../../../plugins/llm/spans/span-kind.js';
import type { OtlpAttributes } from '../../../../../plugins/llm/otlp/otlp-model.js';

const attrs = (o: Record<string, string>): OtlpAttributes => Object.assign(Object.create(null) as OtlpAttributes, o);

test('OpenInference span kinds (upper case, as its conventions write them)', () => {
  const cases: [string, string][] = [['AGENT', 'agent'], ['TOOL', 'tool'], ['RETRIEVER', 'retriever'], ['RERANKER', 'retriever'], ['CHAIN', 'chain'], ['LLM', 'llm'], ['EMBEDDING', 'llm'], ['GUARDRAIL', 'chain']];
  for (const [value, kind] of cases) assert.is(otlpSpanKind(attrs({ 'openinference.span.kind': value })), kind, value);
});

test('OpenLLMetry traceloop.span.kind: withWorkflow, withTask, withAgent, withTool', () => {
  assert.is(otlpSpanKind(attrs({ 'traceloop.span.kind': 'workflow' })), 'chain');
  assert.is(otlpSpanKind(attrs({ 'traceloop.span.kind': 'task' })), 'chain');
  assert.is(otlpSpanKind(attrs({ 'traceloop.span.kind': 'agent' })), 'agent');
  assert.is(otlpSpanKind(attrs({ 'traceloop.span.kind': 'tool' })), 'tool');
});

test('GenAI gen_ai.operation.name, and Langfuse\'s observation type on OTLP', () => {
  assert.is(otlpSpanKind(attrs({ 'gen_ai.operation.name': 'execute_tool' })), 'tool');
  assert.is(otlpSpanKind(attrs({ 'gen_ai.operation.name': 'invoke_agent' })), 'agent');
  assert.is(otlpSpanKind(attrs({ 'gen_ai.operation.name': 'chat' })), 'llm');
  assert.is(otlpSpanKind(attrs({ 'langfuse.observation.type': 'retriever' })), 'retriever');
  assert.is(otlpSpanKind(attrs({ 'langfuse.observation.type': 'event' })), 'event');
});

test('the first convention present wins; unknown values and unclassified spans are `span`', () => {
  assert.is(otlpSpanKind(attrs({ 'openinference.span.kind': 'TOOL', 'traceloop.span.kind': 'agent' })), 'tool');
  assert.is(otlpSpanKind(attrs({ 'openinference.span.kind': 'WHATEVER', 'traceloop.span.kind': 'agent' })), 'agent');
  assert.is(otlpSpanKind(attrs({ 'http.method': 'GET' })), 'span');
  assert.is(otlpSpanKind(attrs({ 'traceloop.span.kind': '__proto__' })), 'span');
});

test('Langfuse observation types', () => {
  assert.is(langfuseKind('generation'), 'llm');
  assert.is(langfuseKind('embedding'), 'llm');
  assert.is(langfuseKind('span'), 'span');
  assert.is(langfuseKind('event'), 'event');
  assert.is(langfuseKind('AGENT'), 'agent');
  assert.is(langfuseKind('tool'), 'tool');
  assert.is(langfuseKind(undefined), 'span');
});

test.run();
