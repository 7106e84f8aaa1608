// A child process for tests/integration/llm-otlp-clients.test.ts: an application as users write it. It calls the
// fake OpenAI server with the real `openai` client (or the Vercel AI SDK) under one real OpenTelemetry
// instrumentation, and exports the spans with a real OTLP exporter to Vigil (through the test's recording proxy).
//
// Env: CLIENT = traceloop | openinference | otel-contrib | vercel-ai; EXPORTER = proto | http;
//      OPENAI_BASE_URL (the fake), OTLP_URL (Vigil's /v1/otlp/traces), OTLP_KEY (the project key, default test-key);
//      OTLP_LOGS_URL: with otel-contrib, a LoggerProvider exports the message events there (as that
//      instrumentation's users must, to capture content).
// The instrumentation is registered before `openai` is required: they hook CommonJS require.
import { createRequire } from 'node:module';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as HttpExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { metrics } from '@opentelemetry/api';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPLogExporter as HttpLogExporter } from '@opentelemetry/exporter-logs-otlp-http';

const require = createRequire(import.meta.url);
const client = process.env.CLIENT ?? 'traceloop';
const baseURL = process.env.OPENAI_BASE_URL!;
const url = process.env.OTLP_URL!;

const headers = { 'x-service-project-key': process.env.OTLP_KEY ?? 'test-key' };
const exporter = process.env.EXPORTER === 'http' ? new HttpExporter({ url, headers }) : new ProtoExporter({ url, headers });
const resource = resourceFromAttributes({ 'service.name': `vigil-test-${client}` });
const provider = new NodeTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

// Logs go out on their own batching processor, independently of the spans, as in an application.
const logsUrl = process.env.OTLP_LOGS_URL;
const loggerProvider = logsUrl ? new LoggerProvider({
  resource,
  processors: [new BatchLogRecordProcessor({ exporter: process.env.EXPORTER === 'http' ? new HttpLogExporter({ url: logsUrl, headers }) : new ProtoLogExporter({ url: logsUrl, headers }) })],
}) : undefined;

const messages = [
  { role: 'system' as const, content: 'You answer in one sentence.' },
  { role: 'user' as const, content: 'What is the capital of France?' },
];

async function withOpenAI(instrument: () => void): Promise<void> {
  instrument();
  const { default: OpenAI } = require('openai') as typeof import('openai');
  const openai = new OpenAI({ baseURL, apiKey: 'sk-fake', maxRetries: 0 });
  await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, temperature: 0.2, max_tokens: 50 });
  const stream = await openai.chat.completions.create({
    model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true },
  });
  for await (const _chunk of stream) { /* drain */ }
  await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'Paris' });
  // Last, so the tests can find it: a call offering a tool, which the fake answers with a tool call.
  await openai.chat.completions.create({
    model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in Paris?' }],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
  });
}

async function run(): Promise<void> {
  switch (client) {
    case 'traceloop': {
      await withOpenAI(() => {
        const { OpenAIInstrumentation } = require('@traceloop/instrumentation-openai');
        new OpenAIInstrumentation({ traceContent: true }).setTracerProvider(provider);
      });
      break;
    }
    case 'openinference': {
      await withOpenAI(() => {
        const { OpenAIInstrumentation } = require('@arizeai/openinference-instrumentation-openai');
        new OpenAIInstrumentation({ tracerProvider: provider });
      });
      break;
    }
    case 'otel-contrib': {
      await withOpenAI(() => {
        const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');
        // Content goes to the Logs API with this instrumentation: it needs a LoggerProvider (OTLP_LOGS_URL). The
        // meter provider is set as registerInstrumentations() would: its streaming path records metrics.
        const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
        instrumentation.setTracerProvider(provider);
        if (loggerProvider) instrumentation.setLoggerProvider(loggerProvider);
        instrumentation.setMeterProvider(metrics.getMeterProvider());
      });
      break;
    }
    case 'vercel-ai': {
      const { generateText, streamText, embed } = await import('ai');
      const { createOpenAI } = await import('@ai-sdk/openai');
      const openai = createOpenAI({ baseURL, apiKey: 'sk-fake' });
      const telemetry = { isEnabled: true, functionId: 'capital-quiz', metadata: { userId: 'user-7', sessionId: 'sess-9' } };
      await generateText({ model: openai.chat('gpt-4o-mini'), messages, temperature: 0.2, experimental_telemetry: telemetry, maxRetries: 0 });
      const streamed = streamText({ model: openai.chat('gpt-4o-mini'), messages, experimental_telemetry: telemetry, maxRetries: 0 });
      await streamed.consumeStream();
      await embed({ model: openai.embedding('text-embedding-3-small'), value: 'Paris', experimental_telemetry: telemetry, maxRetries: 0 });
      break;
    }
    default:
      throw new Error(`unknown CLIENT ${client}`);
  }
  await provider.forceFlush();
  await provider.shutdown();
  await loggerProvider?.shutdown();
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
