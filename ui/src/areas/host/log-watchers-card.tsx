// Log watchers: a pattern over the new lines of the system, user or kernel journal or of a file, polled by the server
// (every interval_s), the same line noticed once per dedup_s. Each can be tried on the latest lines before it is
// saved (POST /api/logwatch/test); the list is saved whole (POST /api/logwatchconfig).
import { useId, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { formatInteger } from '../../format/numbers.js';
import { formatAgo, formatWhen } from '../../format/time.js';
import { announce } from '../../shell/announcer.js';
import { ConfirmAction } from '../alerts/confirm-action.js';
import type { WatcherInput, WatcherList, WatcherRow, WatcherTestAnswer } from './host-api.js';
import { checkPattern, watcherInput } from './watcher-test.js';

const SOURCES: WatcherRow['source'][] = ['system', 'user', 'kernel', 'file'];
const SOURCE_TEXT: Record<WatcherRow['source'], string> = { system: 'System journal', user: 'User journal', kernel: 'Kernel', file: 'A file' };
/** Matching lines a test shows. */
const SHOWN_MATCHES = 5;

function TestResult({ result }: { result: WatcherTestAnswer }) {
  return (
    <div class="custom-test" role="status">
      {result.timed_out ? <Badge tone="danger">Too slow: it would be skipped</Badge>
        : result.matched ? <Badge tone="warning">{formatInteger(result.matched)} of {formatInteger(result.lines_read)} lines match</Badge>
          : <Badge tone="success">No match in the latest {formatInteger(result.lines_read)} lines</Badge>}
      {result.note && <p class="custom-test-detail">{result.note}</p>}
      {result.matches.length > 0 && (
        <ol class="watcher-matches">
          {result.matches.slice(0, SHOWN_MATCHES).map((m, i) => <li key={i}><code title={m.time ? formatWhen(Date.parse(m.time)) : undefined}>{m.line}</code></li>)}
        </ol>
      )}
    </div>
  );
}

function WatcherForm({ onSave, onCancel }: { onSave(w: WatcherInput): Promise<void>; onCancel(): void }) {
  const id = useId();
  const [w, setW] = useState<WatcherInput>({ name: '', pattern: '', ignore_case: false, source: 'system', path: null, enabled: true });
  const [result, setResult] = useState<WatcherTestAnswer>();
  const [problem, setProblem] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<'test' | 'save'>();
  const set = (patch: Partial<WatcherInput>) => { setW({ ...w, ...patch }); setResult(undefined); setProblem(undefined); };
  const ready = (): WatcherInput | null => {
    if (!w.name.trim()) return setProblem('Give the watcher a name.'), null;
    if (w.source === 'file' && !w.path?.startsWith('/')) return setProblem('Give the absolute path of the file.'), null;
    const c = checkPattern(w.pattern, w.ignore_case);
    if (!c.ok) return setProblem(c.message), null;
    return watcherInput({ ...w, ignore_case: w.ignore_case ?? false, path: w.path ?? null, enabled: true });
  };
  const run = async (what: 'test' | 'save') => {
    const input = ready();
    if (!input) return;
    setBusy(what);
    setError(undefined);
    try {
      if (what === 'test') setResult(await postJson<WatcherTestAnswer>('/api/logwatch/test', { rule: input }, { what: 'the test' }));
      else await onSave(input);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <form class="custom-form" aria-label="New log watcher" onSubmit={(e) => { e.preventDefault(); void run('save'); }}>
      <div class="custom-form-grid">
        <div class="field">
          <label class="field-label" for={`${id}-source`}>Source</label>
          <select id={`${id}-source`} class="input" value={w.source} onChange={(e) => set({ source: e.currentTarget.value as WatcherInput['source'] })}>
            {SOURCES.map((s) => <option key={s} value={s}>{SOURCE_TEXT[s]}</option>)}
          </select>
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-name`}>Name</label>
          <input id={`${id}-name`} class="input" maxLength={60} value={w.name} placeholder="OOM killer" onInput={(e) => set({ name: e.currentTarget.value })} />
        </div>
        <div class="field field-wide">
          <label class="field-label" for={`${id}-pattern`}>Pattern (regular expression)</label>
          <input id={`${id}-pattern`} class="input input-mono" maxLength={500} value={w.pattern} placeholder="Out of memory: Killed process" onInput={(e) => set({ pattern: e.currentTarget.value })} />
        </div>
        {w.source === 'file' && (
          <div class="field field-wide">
            <label class="field-label" for={`${id}-path`}>File</label>
            <input id={`${id}-path`} class="input input-mono" maxLength={4096} value={w.path ?? ''} placeholder="/var/log/nginx/error.log" onInput={(e) => set({ path: e.currentTarget.value })} />
          </div>
        )}
        <label class="check">
          <input type="checkbox" checked={w.ignore_case ?? false} onChange={(e) => set({ ignore_case: e.currentTarget.checked })} />
          Ignore case
        </label>
      </div>
      <p class="field-hint">Test runs the pattern over the latest lines of the source now, as the watcher will.</p>
      {problem && <p class="field-error" role="alert">{problem}</p>}
      {result && <TestResult result={result} />}
      {error && <ErrorState error={error} compact />}
      <div class="form-actions">
        <button type="button" class="button button-secondary" disabled={!!busy} onClick={() => run('test')}>{busy === 'test' ? 'Testing…' : 'Test'}</button>
        <button type="submit" class="button button-primary" disabled={!!busy}>Save the watcher</button>
        <button type="button" class="button button-ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

function WatcherState({ w }: { w: WatcherRow }) {
  const { state } = w;
  if (state.last_error) return <span class="field-error">{state.last_error}</span>;
  return (
    <span class="muted">
      {state.matches_24h ? `${formatInteger(state.matches_24h)} ${state.matches_24h === 1 ? 'match' : 'matches'} in 24 h` : 'No match in 24 h'}
      {state.polled_at && ` · read ${formatAgo(Date.parse(state.polled_at))}`}
      {state.note && ` · ${state.note}`}
    </span>
  );
}

export function LogWatchersCard({ watchers, onSaved }: { watchers: WatcherList; onSaved(w: WatcherList): void }) {
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<ApiError>();
  const rules = watchers.rules;
  const save = async (list: WatcherInput[], done: string) => {
    setError(undefined);
    try {
      onSaved(await postJson<WatcherList>('/api/logwatchconfig', { enabled: watchers.enabled, rules: list }, { what: 'the log watchers' }));
      announce(done);
    } catch (err) {
      setError(err as ApiError);
      throw err;
    }
  };
  const inputs = () => rules.map(watcherInput);
  return (
    <Card title="Log watchers" description={`A pattern over new lines of a journal or a file, read every ${watchers.interval_s} s; the same line is noticed once in ${Math.round(watchers.dedup_s / 60)} minutes`}
      actions={!adding && <button type="button" class="button button-secondary button-small" disabled={rules.length >= watchers.max_rules} onClick={() => setAdding(true)}>Add a watcher</button>}>
      {adding && <WatcherForm onCancel={() => setAdding(false)} onSave={async (w) => { await save([...inputs(), w], `${w.name} is saved.`); setAdding(false); }} />}
      {rules.length === 0 && !adding && (
        <EmptyState compact icon="record" title="No log watcher yet">
          <p>Be told when a line you care about appears: the OOM killer (<code class="inline-code">Out of memory</code>), a disk error (<code class="inline-code">I/O error</code>), failed logins. Add a watcher and Test it on the latest lines.</p>
        </EmptyState>
      )}
      {rules.length > 0 && (
        <ul class="custom-rules">
          {rules.map((r, i) => (
            <li key={r.name} class="custom-rule">
              <div class="custom-rule-text">
                <span class="custom-rule-name">{r.name} <span class="muted">· {r.source === 'file' ? r.path : SOURCE_TEXT[r.source]}</span></span>
                <code class="custom-rule-sentence">{r.pattern}{r.ignore_case ? ' (any case)' : ''}</code>
                <WatcherState w={r} />
              </div>
              <div class="custom-rule-actions">
                {r.enabled ? <Badge tone="success">Watching</Badge> : <Badge>Off</Badge>}
                <button type="button" role="switch" class="switch" aria-checked={r.enabled} aria-label={`${r.name}: on`}
                  onClick={() => save(inputs().map((x, j) => (j === i ? { ...x, enabled: !r.enabled } : x)), `${r.name} is ${r.enabled ? 'off' : 'on'}.`).catch(() => {})}><span class="switch-thumb" /></button>
                <ConfirmAction small label="Remove…" question={<>Remove <strong>{r.name}</strong>?</>} confirm="Remove" run={() => save(inputs().filter((_, j) => j !== i), `${r.name} is removed.`)} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {error && <ErrorState error={error} compact />}
    </Card>
  );
}
