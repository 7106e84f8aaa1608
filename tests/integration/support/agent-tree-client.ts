// A child process for tests/integration/llm-trace-trees.test.ts: an agent as users write it, under one real
// instrumentation. The agent step looks a city up (a retriever or tool span that ends before any LLM call), asks
// the model with a tool offered (the fake answers with a call to get_weather), runs the tool (a tool span inside
// the agent step), and asks the model again. The real `openai` client's calls are the LLM spans, made by the
// instrumentation; the agent and tool spans are made the way each library's users make them:
// - traceloop: OpenLLMetry's @traceloop/instrumentation-openai; the parents with the OTel tracer and
//   @traceloop/ai-semantic-conventions' attribute names, as OpenLLMetry's withAgent / withTool set them;
// - openinference: @arizeai/openinference-instrumentation-openai; the parents with @arizeai/openinference-core's
//   traceAgent / traceTool / withSpan.
// Spans go out through a BatchSpanProcessor that exports one span per request, so a trace's spans reach Vigil in
// separate exports, children before their parents, the lookup before the first LLM call.
// Env: CLIENT = traceloop | openinference; OPENAI_BASE_URL; OTLP_URL; OTLP_KEY.
import { createRequire } from 'node:module';
import type { Span } from '@opentelemetry/api';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';

const require = createRequire(import.meta.url);
const client = process.env.CLIENT ?? 'traceloop';
const exporter = new OTLPTraceExporter({ url: process.env.OTLP_URL!, headers: { 'x-service-project-key': process.env.OTLP_KEY! } });
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ 'service.name': `vigil-tree-${client}` }),
  spanProcessors: [new BatchSpanProcessor(exporter, { maxExportBatchSize: 1, scheduledDelayMillis: 20 })],
});
provider.register();

if (client === 'traceloop') {
  const { OpenAIInstrumentation } = require('@traceloop/instrumentation-openai');
  new OpenAIInstrumentation({ traceContent: true }).setTracerProvider(provider);
} else {
  const { OpenAIInstrumentation } = require('@arizeai/openinference-instrumentation-openai');
  new OpenAIInstrumentation({ tracerProvider: provider });
}
const { default: OpenAI } = require('openai') as typeof import('openai');
const openai = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL!, apiKey: 'sk-fake', maxRetries: 0 });

/** The question carries an e-mail address: the project's detectors must mask it in every span that holds it. */
const QUESTION = 'I am alice@example.com: what is the weather in Paris?';
const TOOLS = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];

async function agentStep(question: string, lookup: (q: string) => Promise<unknown>, weather: (city: string) => Promise<unknown>): Promise<string> {
  await lookup(question);
  const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }], tools: TOOLS });
  const call = first.choices[0].message.tool_calls![0] as { id: string; function: { arguments: string } };
  const report = await weather(JSON.parse(call.function.arguments).city as string);
  const second = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: question }, first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: typeof report === 'string' ? report : JSON.stringify(report) }],
  });
  return second.choices[0].message.content ?? '';
}

async function traceloop(): Promise<void> {
  const { SpanAttributes, TraceloopSpanKindValues } = require('@traceloop/ai-semantic-conventions');
  const tracer = provider.getTracer('traceloop.tracer');
  // As OpenLLMetry's withEntity does: a span named `<name>.<kind>`, kind and entity name set, input and output as JSON.
  const entity = async <T>(kind: string, name: string, input: unknown, fn: () => Promise<T>): Promise<T> =>
    tracer.startActiveSpan(`${name}.${kind}`, {
      attributes: {
        [SpanAttributes.TRACELOOP_SPAN_KIND]: kind,
        [SpanAttributes.TRACELOOP_ENTITY_NAME]: name,
        [SpanAttributes.TRACELOOP_WORKFLOW_NAME]: 'weather_agent',
        [SpanAttributes.TRACELOOP_ENTITY_INPUT]: JSON.stringify({ args: [input], kwargs: {} }),
      },
    }, async (span: Span) => {
      const out = await fn();
      span.setAttribute(SpanAttributes.TRACELOOP_ENTITY_OUTPUT, JSON.stringify(out));
      span.end();
      return out;
    });
  await entity(TraceloopSpanKindValues.AGENT, 'weather_agent', QUESTION, () => agentStep(QUESTION,
    (q) => entity(TraceloopSpanKindValues.TOOL, 'lookup_city', q, async () => ({ city: 'Paris' })),
    (city) => entity(TraceloopSpanKindValues.TOOL, 'get_weather', city, async () => ({ temp_c: 21 }))));
}

async function openinference(): Promise<void> {
  const { traceAgent, traceTool, withSpan } = require('@arizeai/openinference-core');
  const lookup = withSpan(async (_q: string) => 'Paris', { name: 'lookup_city', kind: 'RETRIEVER' });
  const weather = traceTool(async (_city: string) => '{"temp_c":21}', { name: 'get_weather' });
  const agent = traceAgent((q: string) => agentStep(q, lookup, weather), { name: 'weather_agent' });
  await agent(QUESTION);
}

(client === 'traceloop' ? traceloop() : openinference())
  .then(async () => {
    await provider.forceFlush();
    await provider.shutdown();
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
