// The assistant: a side panel on every page (a full-width sheet on phones), opened with Ctrl+I and closed with Esc.
// Answers stream in as text; what the page offers to send is shown as chips the user can read and remove before
// asking; proposals are cards that open a page, and nothing runs from here.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../../components/icon.js';
import { getJson, isAbort, postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { AssistantContextItem, AssistantSettings, AssistantTestResult } from '../../data/api.gen.js';
import { here } from '../router.js';
import { shellInfo } from '../shell-info.js';
import { streamAnswer, type Proposal, type StreamEvent } from './answer-stream.js';
import { AssistantSetup } from './assistant-setup.js';
import { assistantOpen, offeredContext, pendingReport } from './assistant-state.js';
import { ContextChips } from './context-chips.js';
import { MessageText } from './message-text.js';
import { ProposalCard } from './proposal-card.js';

interface Turn {
  role: 'user' | 'assistant';
  text: string;
  proposals: Proposal[];
  /** Under an answer: what was masked, why it ended early. */
  notes: string[];
  streaming: boolean;
}

export function AssistantPanel() {
  const open = assistantOpen.value;
  const [settings, setSettings] = useState<AssistantSettings | null | 'off'>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [testing, setTesting] = useState<string | null>(null);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [draft, setDraft] = useState('');
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const running = useRef<AbortController | null>(null);
  const panel = useRef<HTMLElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const enabled = shellInfo.value?.plugins.includes('assistant') ?? false;
  const context = offeredContext.value.filter((c) => !removed.has(c.title));
  const report = pendingReport.value;
  const streaming = turns.some((t) => t.streaming);

  // A removed item stays removed while the page refreshes what it offers (new log lines); another page starts afresh.
  useEffect(() => setRemoved(new Set()), [here.value.path]);

  useEffect(() => {
    if (!open || !enabled || settings) return;
    getJson<AssistantSettings>('/api/llm', { what: 'the assistant settings' })
      .then((s) => { setSettings(s); setLoadError(null); })
      .catch((err: ApiError) => setLoadError(err.message));
  }, [open, enabled, settings]);

  // Focus moves into the panel when it opens and back to where it was when it closes; Esc stops and closes.
  useLayoutEffect(() => {
    if (!open) return;
    const before = document.activeElement as HTMLElement | null;
    const first = ['textarea', '.assistant-setup select', 'button.assistant-close'].map((q) => panel.current?.querySelector<HTMLElement>(q)).find(Boolean);
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      running.current?.abort();
      assistantOpen.value = false;
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (before && before !== document.body && before.isConnected) before.focus({ preventScroll: true });
      else document.getElementById('main')?.focus({ preventScroll: true });
    };
  }, [open, settings !== null]);

  useEffect(() => { log.current?.scrollTo({ top: log.current.scrollHeight }); }, [turns]);

  const update = (fn: (t: Turn) => Turn) => setTurns((all) => [...all.slice(0, -1), fn(all[all.length - 1])]);
  const run = async (path: string, body: unknown, question: string) => {
    const abort = new AbortController();
    running.current = abort;
    setTurns((all) => [...all, { role: 'user', text: question, proposals: [], notes: [], streaming: false }, { role: 'assistant', text: '', proposals: [], notes: [], streaming: true }]);
    const onEvent = (e: StreamEvent) => {
      if (e.event === 'delta') update((t) => ({ ...t, text: t.text + e.data.text }));
      else if (e.event === 'proposal') update((t) => ({ ...t, proposals: [...t.proposals, e.data] }));
      else if (e.event === 'start' && e.data.masked) update((t) => ({ ...t, notes: [...t.notes, `${e.data.masked} value${e.data.masked === 1 ? '' : 's'} that looked like secrets were masked before sending.`] }));
      else if (e.event === 'done' && e.data.message) update((t) => ({ ...t, notes: [...t.notes, e.data.outcome === 'failed' ? `No answer: ${e.data.message}.` : `Cut: ${e.data.message}.`] }));
    };
    try {
      await streamAnswer(path, body, abort.signal, onEvent);
    } catch (err) {
      update((t) => ({ ...t, notes: [...t.notes, isAbort(err) ? 'Stopped.' : (err as ApiError).message] }));
    } finally {
      running.current = null;
      update((t) => ({ ...t, streaming: false }));
    }
  };

  const send = (e: Event) => {
    e.preventDefault();
    const question = draft.trim();
    if (!question || streaming) return;
    const history = [...turns.filter((t) => t.text).map((t) => ({ role: t.role, content: t.text })), { role: 'user' as const, content: question }].slice(-40);
    setDraft('');
    void run('/api/ai', { messages: history, ...(context.length ? { context } : {}) }, question);
  };
  const writeReport = () => {
    if (!report || streaming) return;
    pendingReport.value = null;
    void run('/api/health', report, `Write a short report on the health score (${report.findings.length} findings).`);
  };

  const closePanel = () => { assistantOpen.value = false; };
  const test = async () => {
    setTesting('Asking the provider…');
    try {
      const r = await postJson<AssistantTestResult>('/api/llmtest', {}, { what: 'the provider test' });
      setTesting(r.ok ? `The provider answered in ${(r.duration_ms / 1000).toFixed(1)} s: "${r.answer}"` : `The provider did not answer: ${r.message ?? r.outcome}.`);
    } catch (err) {
      setTesting((err as ApiError).message);
    }
  };

  if (!open) return null;
  const configured = settings && settings !== 'off' && settings.configured && !editing;
  return (
    <section ref={panel} id="assistant" class="assistant" role="dialog" aria-modal="false" aria-labelledby="assistant-title">
      <header class="assistant-head">
        <h2 id="assistant-title">Assistant</h2>
        {configured && <span class="assistant-model">{settings.provider} · {settings.model ?? settings.command?.[0]}</span>}
        {configured && settings.can_configure && (
          <>
            <button type="button" class="button button-ghost" onClick={test}>Test</button>
            <button type="button" class="button button-ghost" onClick={() => setEditing(true)}>Provider</button>
          </>
        )}
        <button type="button" class="button button-ghost button-icon assistant-close" aria-label="Close the assistant (Esc)" onClick={() => { running.current?.abort(); assistantOpen.value = false; }}>
          <Icon name="close" />
        </button>
      </header>
      {!enabled ? (
        <p class="assistant-note">The assistant is not enabled on this instance. Add <code>assistant: {'{}'}</code> to the config file and restart Vigil.</p>
      ) : loadError ? (
        <p class="field-error" role="alert">{loadError}</p>
      ) : !settings ? (
        <p class="assistant-note">Loading…</p>
      ) : !configured ? (
        <AssistantSetup settings={settings as AssistantSettings} onSaved={(s) => { setSettings(s); setEditing(false); }} />
      ) : (
        <>
          {testing && <p class="assistant-note" role="status">{testing}</p>}
          <div ref={log} class="assistant-log" aria-live="polite" aria-busy={streaming}>
            {turns.length === 0 && (
              <p class="assistant-note">Ask about this machine: a failed service, a log line, what a finding means. The assistant only proposes actions; you do them on their page.</p>
            )}
            {turns.map((t, i) => (
              <div key={i} class={`assistant-turn assistant-turn-${t.role}`}>
                {t.role === 'user' ? <p class="assistant-question">{t.text}</p> : <MessageText text={t.text} cards={new Map(t.proposals.map((p) => [p.source, <ProposalCard proposal={p} onOpen={closePanel} />]))} />}
                {t.streaming && !t.text && <p class="assistant-note">Waiting for the first words…</p>}
                {t.notes.map((n, j) => <p key={`n${j}`} class="assistant-note">{n}</p>)}
              </div>
            ))}
          </div>
          {report && (
            <div class="assistant-report">
              <ContextChips items={[{ kind: 'health', title: `Health findings (${report.findings.length})`, content: report.findings.map((f) => `[${f.severity}] ${f.title}: ${f.detail}`).join('\n') || 'No findings.' }]}
                onRemove={() => { pendingReport.value = null; }} />
              <button type="button" class="button button-primary" disabled={streaming} onClick={writeReport}>Write the health report</button>
            </div>
          )}
          <form class="assistant-compose" onSubmit={send}>
            {context.length > 0 && <ContextChips items={context} onRemove={(c: AssistantContextItem) => setRemoved(new Set([...removed, c.title]))} />}
            <label class="sr-only" for="assistant-question">Your question</label>
            <textarea id="assistant-question" class="input assistant-input" rows={3} value={draft} placeholder="Ask about this machine…"
              onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
              onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey) send(e); }} />
            <div class="assistant-actions">
              <span class="field-hint">Enter sends; Shift+Enter for a new line.</span>
              {streaming ? (
                <button type="button" class="button button-secondary" onClick={() => running.current?.abort()}>Stop</button>
              ) : (
                <button type="submit" class="button button-primary" disabled={!draft.trim()}>Send</button>
              )}
            </div>
          </form>
        </>
      )}
    </section>
  );
}
