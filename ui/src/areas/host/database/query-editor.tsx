// The statement editor: one statement, run on the server under a timeout and a row cap (Ctrl+Enter runs it). A cut
// result says where it was cut; the CSV holds the same rows.
import { useEffect, useId, useState } from 'preact/hooks';
import { Badge } from '../../../components/badge.js';
import { Card } from '../../../components/card.js';
import { EmptyState } from '../../../components/empty-state.js';
import { ErrorState } from '../../../components/error-state.js';
import type { ApiError } from '../../../data/api-error.js';
import { postJson } from '../../../data/api.js';
import { formatInteger } from '../../../format/numbers.js';
import { announce } from '../../../shell/announcer.js';
import { connectionPath, downloadQueryCsv, type DbConnection, type DbLimits, type DbQueryResult, type QueryInput } from './db-api.js';
import { ResultGrid } from './result-grid.js';

const CAPS = [100, 1000, 10000];
const TIMEOUTS_S = [5, 15, 60, 120];

export function QueryEditor({ connection, sql: given, limits }: { connection: DbConnection; sql: string; limits: DbLimits }) {
  const id = useId();
  const [sql, setSql] = useState(given);
  useEffect(() => setSql(given), [given]);
  const caps = [...new Set([...CAPS, limits.row_cap])].filter((c) => c <= limits.max_row_cap).sort((a, b) => a - b);
  const timeouts = [...new Set([...TIMEOUTS_S, Math.round(limits.statement_timeout_ms / 1000)])].filter((s) => s * 1000 <= limits.max_statement_timeout_ms && s > 0).sort((a, b) => a - b);
  const [cap, setCap] = useState(limits.row_cap);
  const [timeoutS, setTimeoutS] = useState(Math.round(limits.statement_timeout_ms / 1000));
  const [result, setResult] = useState<DbQueryResult>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<'run' | 'csv' | null>(null);
  const body = (): QueryInput => ({ sql, max_rows: cap, timeout_ms: timeoutS * 1000 });
  const run = async () => {
    if (!sql.trim() || busy) return;
    setBusy('run');
    setError(undefined);
    try {
      const r = await postJson<DbQueryResult>(`${connectionPath(connection.id)}/query`, body(), { what: 'the statement' });
      setResult(r);
      announce(r.cut_at !== null ? `Cut at ${r.cut_at} rows.` : r.affected !== null ? `${r.affected} rows changed.` : `${r.rows.length} rows.`);
    } catch (err) {
      setResult(undefined);
      setError(err as ApiError);
    } finally {
      setBusy(null);
    }
  };
  const csv = async () => {
    if (!sql.trim() || busy) return;
    setBusy('csv');
    setError(undefined);
    try {
      await downloadQueryCsv(connection.id, body());
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card title="Query" description={connection.writable ? 'Writes are on: statements may change data, and each one is in the audit log.' : 'Read-only: the database refuses any write.'}
      actions={<Badge tone={connection.writable ? 'warning' : 'success'}>{connection.writable ? 'Writes on' : 'Read-only'}</Badge>}>
      <div class="db-editor">
        <label class="field-label" for={`${id}-sql`}>Statement</label>
        <textarea id={`${id}-sql`} class="input textarea input-mono db-sql" rows={5} spellcheck={false} value={sql} placeholder="SELECT * FROM items LIMIT 10" aria-describedby={`${id}-sql-hint`}
          onInput={(e) => setSql(e.currentTarget.value)}
          onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); void run(); } }} />
        <p class="field-hint" id={`${id}-sql-hint`}>One statement at a time; Ctrl+Enter runs it.</p>
        <div class="db-editor-controls">
          <div class="field">
            <label class="field-label" for={`${id}-cap`}>Row cap</label>
            <select id={`${id}-cap`} class="input" value={cap} onChange={(e) => setCap(Number(e.currentTarget.value))}>
              {caps.map((c) => <option key={c} value={c}>{formatInteger(c)} rows</option>)}
            </select>
          </div>
          <div class="field">
            <label class="field-label" for={`${id}-timeout`}>Timeout</label>
            <select id={`${id}-timeout`} class="input" value={timeoutS} onChange={(e) => setTimeoutS(Number(e.currentTarget.value))}>
              {timeouts.map((s) => <option key={s} value={s}>{s} s</option>)}
            </select>
          </div>
          <div class="form-actions">
            <button type="button" class="button button-primary" disabled={!sql.trim() || busy !== null} onClick={() => void run()}>{busy === 'run' ? 'Running…' : 'Run'}</button>
            <button type="button" class="button" disabled={!sql.trim() || busy !== null} onClick={() => void csv()}>{busy === 'csv' ? 'Preparing…' : 'Download CSV'}</button>
          </div>
        </div>
      </div>
      {error && <ErrorState error={error} compact />}
      {result && (
        <div class="db-result">
          <p class="db-result-summary" role="status">
            {result.affected !== null ? `${result.command ?? 'Done'}: ${formatInteger(result.affected)} rows changed` : `${formatInteger(result.rows.length)} rows`}
            {' '}in {formatInteger(result.duration_ms)} ms
            {result.cut_at !== null && <> · <strong>cut at {formatInteger(result.cut_at)} rows</strong>{result.cut_by === 'bytes' ? ' (the result passed 8 MB)' : ' (the row cap)'}</>}
          </p>
          {result.columns.length > 0 && (
            <ResultGrid caption="Query result" columns={result.columns} rows={result.rows}
              empty={<EmptyState compact icon="search" title="No rows"><p>The statement ran and returned no rows.</p></EmptyState>} />
          )}
        </div>
      )}
    </Card>
  );
}
