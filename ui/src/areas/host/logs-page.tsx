// The machine's logs: the journal (system, user or kernel) or a log file, filtered by priority and text (GET
// /api/logs). The page shows the latest lines newest first, then asks for the lines after the answer's cursor while
// it is visible, so it follows the log without reading it again; the lines it keeps are bounded.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { PageHeader } from '../../components/page-header.js';
import { Segmented, type SegmentedOption } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import { getJson, isAbort } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { formatAgo, formatWhen } from '../../format/time.js';
import { here, navigate, useChoice } from '../../shell/router.js';
import type { AssistantContextItem } from '../../data/api.gen.js';
import { offerContext } from '../../shell/assistant/assistant-state.js';
import { readText, withParams } from '../../shell/url-state.js';
import type { LogAnswer, LogRow, MachineCaps } from './host-api.js';
import { isPriority, PRIORITIES, PRIORITY_LABEL, priorityName, priorityTone } from './log-priority.js';
import { MAX_KEPT_LINES, mergeLines } from './log-window.js';
import { SearchField } from './search-field.js';

const SOURCES = ['system', 'user', 'kernel', 'file'] as const;
type Source = (typeof SOURCES)[number];
const SOURCE_OPTIONS: SegmentedOption<Source>[] = [
  { value: 'system', label: 'System', description: 'The system journal' },
  { value: 'user', label: 'User', description: 'Your user journal' },
  { value: 'kernel', label: 'Kernel', description: 'Kernel messages' },
  { value: 'file', label: 'File', description: 'A log file' },
];
/** Lines the first answer holds. */
const FIRST_LINES = 200;
/** How often the page asks for newer lines while visible. */
const FOLLOW_MS = 10_000;

function Filters({ source, onSource }: { source: Source; onSource(s: Source): void }) {
  const { path, search } = here.value;
  const set = (updates: Record<string, string | null>) => navigate(path + withParams(search, updates), { replace: true });
  const priority = readText(search, 'prio');
  return (
    <div class="toolbar">
      <Segmented label="Source" options={SOURCE_OPTIONS} value={source} onChange={onSource} />
      <label class="filter-select">
        <span class="sr-only">Priority</span>
        <select class="input" value={isPriority(priority) ? priority : ''} onChange={(e) => set({ prio: (e.currentTarget as HTMLSelectElement).value || null })}>
          <option value="">Any priority</option>
          {PRIORITIES.slice(0, 7).map((p) => <option key={p} value={p}>{PRIORITY_LABEL[p]}</option>)}
        </select>
      </label>
      <SearchField label="Text in the line" placeholder="Text in the line, e.g. sshd or failed" value={readText(search, 'q')} onApply={(v) => set({ q: v || null })} />
      {source === 'file' && (
        <SearchField label="Log file path" placeholder="/var/log/syslog" value={readText(search, 'path')} onApply={(v) => set({ path: v || null })} maxLength={4096} />
      )}
    </div>
  );
}

function LogLines({ lines }: { lines: readonly LogRow[] }) {
  // A file's lines carry no time, priority or unit of their own: they read as the file does, one per line.
  if (lines.every((l) => l.time === null && l.priority === null && l.unit === null)) {
    return (
      <ol class="log-lines log-lines-plain" aria-label="Log lines, newest first">
        {lines.map((l, i) => <li key={i} class="log-line"><span class="log-message">{l.message}</span></li>)}
      </ol>
    );
  }
  return (
    <ol class="log-lines" aria-label="Log lines, newest first">
      {lines.map((l, i) => {
        const tone = l.priority === null ? 'neutral' : priorityTone(l.priority);
        const at = l.time ? Date.parse(l.time) : null;
        return (
          <li key={i} class={`log-line log-${tone}`}>
            {at !== null ? <time class="log-time" dateTime={l.time!} title={formatAgo(at)}>{formatWhen(at)}</time> : <span class="log-time">—</span>}
            {l.priority !== null ? <Badge tone={tone}>{priorityName(l.priority)}</Badge> : <span />}
            <span class="log-source" title={l.pid ? `${l.unit ?? ''} (pid ${l.pid})` : l.unit ?? undefined}>{l.unit ?? ''}</span>
            <span class="log-message">{l.message}</span>
          </li>
        );
      })}
    </ol>
  );
}

interface Shown { key: string; lines: LogRow[]; answer: LogAnswer }

/** Lines the assistant is offered at most, and characters: an excerpt, not the log. */
const EXCERPT_LINES = 100;
const EXCERPT_CHARS = 12_000;

function logExcerpt(lines: LogRow[]): AssistantContextItem {
  const newest = lines.slice(0, EXCERPT_LINES);
  const text = newest.map((l) => [l.time, l.unit, l.message].filter(Boolean).join(' ')).join('\n').slice(0, EXCERPT_CHARS);
  return { kind: 'logs', title: `Newest ${newest.length} log lines`, content: text };
}

export default function HostLogsPage() {
  const { path, search } = here.value;
  const caps = useResource<MachineCaps>('/api/caps', 'what this machine has');
  const [source, setSource] = useChoice('source', SOURCES, 'system');
  const filePath = readText(search, 'path');
  const query = new URLSearchParams({ source });
  for (const name of ['path', 'q', 'prio']) if (readText(search, name)) query.set(name, readText(search, name));
  const key = query.toString();
  const needsPath = source === 'file' && !filePath;
  const [shown, setShown] = useState<Shown>();
  const [error, setError] = useState<ApiError>();
  const [checking, setChecking] = useState(false);
  const latest = useRef(shown);
  latest.current = shown;

  const load = (fresh: boolean, signal?: AbortSignal) => {
    if (needsPath) return;
    const q = new URLSearchParams(key);
    const cursor = fresh ? null : latest.current?.key === key ? latest.current.answer.cursor : null;
    if (!fresh && !cursor) return;
    q.set('n', String(fresh ? FIRST_LINES : MAX_KEPT_LINES / 2));
    if (cursor) q.set('cursor', cursor);
    if (!fresh) setChecking(true);
    getJson<LogAnswer>(`/api/logs?${q.toString()}`, { signal, what: 'the logs' }).then(
      (answer) => {
        setError(undefined);
        setShown((s) => ({ key, answer: { ...answer, cursor: answer.cursor ?? s?.answer.cursor ?? null }, lines: mergeLines(s?.key === key ? s.lines : [], answer.lines, fresh) }));
      },
      (err) => { if (!isAbort(err)) setError(err as ApiError); },
    ).finally(() => setChecking(false));
  };

  useEffect(() => {
    const controller = new AbortController();
    setError(undefined);
    load(true, controller.signal);
    return () => controller.abort();
  }, [key]);
  useWhileVisible(() => load(false), FOLLOW_MS);

  const current = shown?.key === key ? shown : undefined;
  // The assistant may be given the newest lines on screen: the user sees them as a chip and can remove it.
  useEffect(() => (current?.lines.length ? offerContext([logExcerpt(current.lines)]) : undefined), [current]);
  const noJournal = caps.data && !caps.data.journal;
  return (
    <>
      <PageHeader title="Logs" subtitle="The journal or a log file, newest first; new lines appear while the page is open." />
      <Filters source={source} onSource={(s) => { setSource(s); if (s !== 'file' && filePath) navigate(path + withParams(search, { source: s, path: null }), { replace: true }); }} />
      {needsPath && (
        <Card>
          <EmptyState icon="record" title="Which file?">
            <p>Type the absolute path of a log file above, for example <code class="inline-code">/var/log/syslog</code>. The server reads its last mebibyte, from the folders its configuration allows.</p>
          </EmptyState>
        </Card>
      )}
      {error && !needsPath && <ErrorState error={error} onRetry={() => load(!current)} />}
      {!current && !error && !needsPath && <Card><Loading label="Reading the logs" lines={10} /></Card>}
      {current && !needsPath && (
        <Card padded={false} title={current.answer.path ?? SOURCE_OPTIONS.find((o) => o.value === source)!.description}
          description={current.answer.origin === 'none' ? undefined : current.answer.note ?? `${formatInteger(current.lines.length)} lines${current.lines.length >= MAX_KEPT_LINES ? ' (the newest kept)' : ''}`}
          actions={<button type="button" class="button button-secondary button-small" disabled={checking || !current.answer.cursor} onClick={() => load(false)}>
            <Icon name="refresh" /> Newer lines
          </button>}>
          {current.answer.origin === 'none' ? (
            <EmptyState compact icon="record" title="Nothing to read for this source here"
              actions={<button type="button" class="button button-secondary" onClick={() => navigate(path + withParams(search, { source: 'file', path: null }))}>Read a log file</button>}>
              <p>{noJournal ? 'This machine keeps no systemd journal, and the syslog file this view falls back to is missing.' : 'The journal has nothing for this source.'} Read a file under the folders the server allows instead.</p>
            </EmptyState>
          ) : current.lines.length === 0 ? (
            <EmptyState compact icon="record" title="No line matches">
              <p>{readText(search, 'q') || readText(search, 'prio') ? 'Loosen a filter: a lower priority, less text, or another source.' : 'This source has no lines yet.'}</p>
            </EmptyState>
          ) : <LogLines lines={current.lines} />}
          {current.answer.truncated && <p class="host-note log-truncated">Older lines are not shown: the server reads a bounded amount. Narrow the filters to reach further back.</p>}
        </Card>
      )}
    </>
  );
}
