// The assistant's API, with perch's names. Reading the settings is for every role (the key never leaves); changing and
// testing them is for owners (it decides where the host's data goes and whose key pays). A chat turn and the health
// report need `member`: a viewer only reads, and a turn sends this host's data to a third party on the owner's key.
// Every answer is bounded: the body by its limit, the context by assistant.max_context_bytes, the answer by the first
// token timeout, the total timeout and assistant.max_answer_bytes, the instance by assistant.max_concurrent_turns.
import { httpError, type HttpRoutes, type RouteContext } from '@vigil/plugin-sdk';
import type { DetectorKind } from '../../policies/detectors/types.js';
import { AssistantErrors } from './errors.js';
import { parseProposals } from './proposals.js';
import { chatMessages, healthReportMessages, type ContextItem, type HealthFindingInput } from './prompts.js';
import { makeProvider } from './providers/make-provider.js';
import type { ChatMessage } from './providers/types.js';
import { redactOutgoing } from './redact-outgoing.js';
import { ANSWER_STREAM, chatInput, healthReportInput, llmConfigInput, llmTestResult, llmView, STREAM_DESCRIPTION } from './response-schemas.js';
import { runTurn, type TurnLimits } from './run-turn.js';
import { openEventStream } from './event-stream.js';
import { checkedSettings } from './settings-check.js';
import type { SettingsInput, SettingsStore } from './settings-store.js';
import type { TurnSlots } from './turn-slots.js';

export interface AssistantRouteDeps {
  settings: SettingsStore;
  slots: TurnSlots;
  limits: TurnLimits & { maxContextBytes: number };
  redact: readonly DetectorKind[];
  /** Aborts every streaming turn when the plugin stops, so no answer holds the shutdown. */
  stopping: AbortSignal;
}

const TAGS = ['assistant'];
const TEST_ANSWER_CHARS = 200;

export function registerAssistantRoutes(http: HttpRoutes, d: AssistantRouteDeps): void {
  const kinds = new Set(d.redact);
  const limitsView = {
    first_token_timeout_ms: d.limits.firstTokenMs, total_timeout_ms: d.limits.totalMs, max_answer_bytes: d.limits.maxAnswerBytes,
    max_context_bytes: d.limits.maxContextBytes,
  };

  http.route({
    method: 'GET', path: '/api/llm', tags: TAGS,
    summary: 'The assistant\'s provider settings (the API key never: only whether one is set) and its limits',
    query: { type: 'object', properties: {} },
    response: llmView,
    handler: async (ctx) => ({
      ...(await d.settings.view()), limits: limitsView, redact: [...d.redact], can_configure: ctx.state.auth?.user?.instanceRole === 'owner',
    }),
  });

  http.route({
    method: 'POST', path: '/api/llmconfig', tags: TAGS,
    summary: 'Set the assistant\'s provider: an OpenAI-compatible endpoint, Anthropic, an Ollama server or a local command; `none` forgets it',
    body: llmConfigInput,
    bodyLimit: 16 * 1024,
    response: llmView,
    async handler(ctx) {
      const b = ctx.request.body as SettingsInput | { provider: 'none' };
      if (b.provider === 'none') await d.settings.clear();
      else await d.settings.save(checkedSettings(b));
      const view = await d.settings.view();
      ctx.state.audit_detail = view.configured ? `provider ${view.provider}, model ${view.model ?? '-'}, key ${view.key_set ? 'set' : 'none'}` : 'assistant turned off';
      return { ...view, limits: limitsView, redact: [...d.redact], can_configure: true };
    },
  });

  /** The provider, a turn slot held for it, or the refusal (no settings, every slot busy). Release the slot after. */
  const reserve = async () => {
    if (!d.slots.take()) throw httpError(AssistantErrors.BUSY, `${d.slots.max} answers are streaming already; wait for one to end`);
    try {
      const s = await d.settings.settings();
      if (!s) throw httpError(AssistantErrors.NOT_CONFIGURED, 'no provider is set: an owner sets one in the assistant panel (Ctrl+I)');
      return { s, provider: makeProvider(s) };
    } catch (err) {
      d.slots.release();
      throw err;
    }
  };

  http.route({
    method: 'POST', path: '/api/llmtest', tags: TAGS,
    summary: 'A one-line round trip to the saved provider: does it answer, and how fast',
    body: { type: 'object', additionalProperties: false, properties: {} },
    response: llmTestResult,
    async handler(ctx) {
      const { s, provider } = await reserve();
      const started = Date.now();
      try {
        const messages: ChatMessage[] = [{ role: 'system', content: 'Answer in one short line.' }, { role: 'user', content: 'Reply with the word "ready".' }];
        const cancel = new AbortController();
        ctx.res.once('close', () => cancel.abort());
        const r = await runTurn(provider, messages, { ...d.limits, maxAnswerBytes: Math.min(d.limits.maxAnswerBytes, 4096) }, AbortSignal.any([cancel.signal, d.stopping]), () => {});
        ctx.state.audit_detail = `provider ${s.provider}, model ${s.model ?? '-'}: ${r.outcome}`;
        return {
          ok: r.outcome === 'done' && r.answer.trim() !== '', outcome: r.outcome, answer: r.answer.trim().slice(0, TEST_ANSWER_CHARS),
          message: r.message ?? (r.answer.trim() ? null : 'the provider answered with no text'), endpoint: provider.endpoint, duration_ms: Date.now() - started,
        };
      } finally {
        d.slots.release();
      }
    },
  });

  /** Streams one answer to `messages`: redacted, bounded, proposals read from it at the end. */
  const streamAnswer = async (ctx: RouteContext, build: (redact: (text: string) => string) => ChatMessage[], what: string) => {
    const { s, provider } = await reserve();
    let masked = 0;
    const redact = (text: string) => {
      const r = redactOutgoing(text, kinds);
      masked += r.masked;
      return r.text;
    };
    let messages: ChatMessage[];
    try {
      messages = build(redact);
    } catch (err) {
      d.slots.release();
      throw err;
    }
    // Provider and model, never the content: prompts carry log lines and findings of this host.
    ctx.state.audit_detail = `${what}: provider ${s.provider}, model ${s.model ?? '-'}, ${provider.endpoint}; ${masked} values masked; content not logged`;
    const stream = openEventStream(ctx);
    stream.send('start', { provider: s.provider, model: s.model, masked });
    void runTurn(provider, messages, d.limits, AbortSignal.any([stream.closed, d.stopping]), (text) => stream.send('delta', { text }))
      .then((r) => {
        for (const p of parseProposals(r.answer)) stream.send('proposal', p);
        stream.send('done', { outcome: r.outcome, message: r.message, bytes: r.bytes });
      })
      .finally(() => {
        stream.end();
        d.slots.release();
      });
    return stream;
  };

  http.route({
    method: 'POST', path: '/api/ai', tags: TAGS, role: 'member',
    summary: 'One chat turn, streamed as server-sent events; the context the user kept goes with it, secrets masked',
    description: STREAM_DESCRIPTION,
    body: chatInput,
    bodyLimit: 512 * 1024,
    response: ANSWER_STREAM,
    async handler(ctx) {
      const b = ctx.request.body as { messages: ChatMessage[]; context?: ContextItem[] };
      if (b.messages[b.messages.length - 1].role !== 'user') throw httpError(AssistantErrors.CONFIG_INVALID, 'the last message must be the user\'s question');
      const context = b.context ?? [];
      const size = context.reduce((n, c) => n + Buffer.byteLength(c.content), 0);
      if (size > d.limits.maxContextBytes) {
        throw httpError(AssistantErrors.CONTEXT_TOO_LARGE, `the context is ${size} bytes, more than assistant.max_context_bytes (${d.limits.maxContextBytes}); remove an item`);
      }
      await streamAnswer(ctx, (redact) => chatMessages(
        b.messages.map((m) => ({ role: m.role, content: redact(m.content) })),
        context.map((c) => ({ ...c, title: redact(c.title), content: redact(c.content) })),
      ), `chat turn, ${b.messages.length} messages, context: ${context.map((c) => c.kind).join(', ') || 'none'}`);
    },
  });

  http.route({
    method: 'POST', path: '/api/health', tags: TAGS, role: 'member',
    summary: 'perch\'s AI report: a short report over the health score\'s findings, streamed as server-sent events',
    description: STREAM_DESCRIPTION,
    body: healthReportInput,
    bodyLimit: 256 * 1024,
    response: ANSWER_STREAM,
    async handler(ctx) {
      const b = ctx.request.body as { score?: number; verdict?: string; findings: HealthFindingInput[] };
      await streamAnswer(ctx, (redact) => healthReportMessages(b.score, b.verdict, b.findings.map((f) => ({ severity: f.severity, title: redact(f.title), detail: redact(f.detail) }))),
        `health report, ${b.findings.length} findings`);
    },
  });
}
