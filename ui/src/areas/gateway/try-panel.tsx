// "Try a request": method, path, headers and body (and optionally a response) through the rules in force, by the
// code of `vigil test` (POST /api/gateway/policy/try). Shows the record as it would be stored and why; nothing is
// stored.
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { ErrorState } from '../../components/error-state.js';
import { JsonView } from '../../components/json-view.js';
import type { ApiError } from '../../data/api-error.js';
import { postJson } from '../../data/api.js';
import type { PolicyRule, TryInput, TryResult } from './policy-api.js';
import { explainTry, parseHeaderLines } from './rule-text.js';
import { Ticks } from './ticks.js';
import { exampleRequest } from './try-example.js';

export { examplePath } from './try-example.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

interface Draft {
  method: string;
  path: string;
  headers: string;
  body: string;
  withResponse: boolean;
  status: string;
  responseHeaders: string;
  responseBody: string;
}

const EMPTY: Draft = { method: 'GET', path: '/', headers: '', body: '', withResponse: false, status: '200', responseHeaders: '', responseBody: '' };

/** The example as a draft: the request of try-example.ts, no response. */
function example(rules: readonly PolicyRule[]): Draft {
  return { ...EMPTY, ...exampleRequest(rules) };
}

function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label class="field-label" for={id}>{label}</label>
      {children}
      {error ? <p class="field-error" id={`${id}-error`}>{error}</p> : hint && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  );
}

const PART_WORDS: Record<TryResult['unmasked'][number]['part'], string> = {
  query: 'query parameter', header: 'header', request_body: 'request body field', response_body: 'response body field',
};

/** Values stored in clear that `vigil scan`'s detectors call sensitive: what each looks like, and the rule that masks it. */
function Unmasked({ findings }: { findings: TryResult['unmasked'] }) {
  if (findings.length === 0) return null;
  return (
    <div class="unmasked" role="alert">
      <h4 class="unmasked-title">
        {findings.length === 1 ? 'A value looks sensitive and would be stored in clear' : `${findings.length} values look sensitive and would be stored in clear`}
      </h4>
      <ul class="unmasked-list">
        {findings.map((f) => (
          <li key={`${f.part} ${f.field} ${f.kind}`} class="unmasked-item">
            <p>
              The {PART_WORDS[f.part]} <code class="inline-code">{f.field}</code> holds <code class="inline-code">{f.sample}</code>, which
              the <code class="inline-code">{f.kind}</code> detector recognises ({f.why}). No rule masks this field.
            </p>
            <p class="muted">To mask it, add this rule to the <code class="inline-code">rules:</code> list and reload, or add its <code class="inline-code">redact</code> setting to a rule that matches:</p>
            <CodeBlock label={`A rule that masks ${f.field}`} language="yaml" code={f.rule} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The record as the JSON view shows it: the time as a date (a record stores epoch ms). */
const shown = (record: TryResult['record']) => ({ ...record, time: new Date(record.time).toISOString() });

function TryOutcome({ result, rules }: { result: TryResult; rules: readonly PolicyRule[] }) {
  const explanations = explainTry(result, rules);
  return (
    <section class="try-result" aria-label="What would be stored">
      <h3 class="detail-heading">What would be stored</h3>
      <ul class="explanations" aria-live="polite">
        {explanations.map((e) => <li key={e.text} class={`explanation explanation-${e.tone}`}><Ticks text={e.text} /></li>)}
      </ul>
      <Unmasked findings={result.unmasked ?? []} />
      <JsonView value={shown(result.record)} label="The record as it would be stored" />
      <p class="muted try-footnote">Nothing was stored or exported: a try never is.</p>
    </section>
  );
}

export interface TryPanelProps {
  rules: readonly PolicyRule[];
  /** The latest answer (lifted, so the rule list can mark the rules it matched). */
  result: TryResult | undefined;
  onResult(result: TryResult | undefined): void;
}

export function TryPanel({ rules, result, onResult }: TryPanelProps) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [problem, setProblem] = useState<{ field: 'headers' | 'responseHeaders' | 'status'; message: string }>();
  const [error, setError] = useState<ApiError | Error>();
  const [busy, setBusy] = useState(false);
  const set = (key: keyof Draft) => (event: Event) => {
    const target = event.currentTarget as HTMLInputElement;
    setDraft((d) => ({ ...d, [key]: target.type === 'checkbox' ? target.checked : target.value }));
  };

  const run = async () => {
    setProblem(undefined);
    const headers = parseHeaderLines(draft.headers);
    if ('error' in headers) return setProblem({ field: 'headers', message: headers.error });
    const input: TryInput = { method: draft.method, path: draft.path.trim() || '/', headers: headers.headers, ...(draft.body ? { body: draft.body } : {}) };
    if (draft.withResponse) {
      const responseHeaders = parseHeaderLines(draft.responseHeaders);
      if ('error' in responseHeaders) return setProblem({ field: 'responseHeaders', message: responseHeaders.error });
      const status = Number(draft.status);
      if (!/^\d{1,3}$/.test(draft.status.trim()) || status > 599) return setProblem({ field: 'status', message: 'A status is a number from 0 to 599 (0: the upstream never answered).' });
      input.response = { status, headers: responseHeaders.headers, ...(draft.responseBody ? { body: draft.responseBody } : {}) };
    }
    setBusy(true);
    setError(undefined);
    try {
      onResult(await postJson<TryResult>('/api/gateway/policy/try', input, { what: 'the tried request' }));
    } catch (err) {
      onResult(undefined);
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void run();
  };
  // Ctrl+Enter (⌘+Enter) in a text area tries the request, as in most request tools.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void run();
    }
  };
  const described = (field: string, key: 'headers' | 'responseHeaders' | 'status', hint = true) =>
    problem?.field === key ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : hint ? { 'aria-describedby': `${id}-${field}-hint` } : {};

  return (
    <Card title="Try a request" class="try-card"
      description="Through the rules in force, by the code of vigil test. Nothing is stored."
      actions={<button type="button" class="button button-ghost button-small" onClick={() => { setDraft(example(rules)); setProblem(undefined); }}>Fill in an example</button>}>
      <form class="try-form" onSubmit={onSubmit} onKeyDown={onKeyDown} aria-label="Try a request">
        <div class="field-row">
          <div class="field field-method">
            <label class="field-label" for={`${id}-method`}>Method</label>
            <select id={`${id}-method`} class="input" value={draft.method} onChange={set('method')}>
              {METHODS.map((m) => <option key={m} value={m}>{m}</option>)}
            </select>
          </div>
          <div class="field field-grow">
            <label class="field-label" for={`${id}-path`}>Path</label>
            <input id={`${id}-path`} class="input input-mono" type="text" value={draft.path} onInput={set('path')} required
              spellcheck={false} autocomplete="off" placeholder="/api/orders/17?token=abc" />
          </div>
        </div>
        <Field id={`${id}-headers`} label="Headers" hint="One per line, as Name: value." error={problem?.field === 'headers' ? problem.message : undefined}>
          <textarea id={`${id}-headers`} class="input textarea input-mono" rows={3} value={draft.headers} onInput={set('headers')}
            spellcheck={false} placeholder={'Authorization: Bearer …\nX-Tenant-Id: acme'} {...described('headers', 'headers')} />
        </Field>
        <Field id={`${id}-body`} label="Body" hint="Sent as written; without a Content-Type header, as JSON.">
          <textarea id={`${id}-body`} class="input textarea input-mono" rows={5} value={draft.body} onInput={set('body')}
            spellcheck={false} placeholder={'{ "card": { "number": "4111 1111 1111 1111" } }'} aria-describedby={`${id}-body-hint`} />
        </Field>
        <label class="check">
          <input type="checkbox" checked={draft.withResponse} onChange={set('withResponse')} />
          <span>Add the upstream's response</span>
        </label>
        {draft.withResponse && (
          <fieldset class="try-response">
            <legend class="sr-only">The upstream's response</legend>
            <Field id={`${id}-status`} label="Status" error={problem?.field === 'status' ? problem.message : undefined}>
              <input id={`${id}-status`} class="input input-status" type="text" inputMode="numeric" value={draft.status} onInput={set('status')}
                {...described('status', 'status', false)} />
            </Field>
            <Field id={`${id}-response-headers`} label="Response headers" error={problem?.field === 'responseHeaders' ? problem.message : undefined}>
              <textarea id={`${id}-response-headers`} class="input textarea input-mono" rows={2} value={draft.responseHeaders} onInput={set('responseHeaders')}
                spellcheck={false} placeholder="Content-Type: application/json" {...described('response-headers', 'responseHeaders', false)} />
            </Field>
            <Field id={`${id}-response-body`} label="Response body">
              <textarea id={`${id}-response-body`} class="input textarea input-mono" rows={4} value={draft.responseBody} onInput={set('responseBody')}
                spellcheck={false} placeholder={'{ "id": "ch_1", "status": "succeeded" }'} />
            </Field>
          </fieldset>
        )}
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Trying…' : 'Try it'}</button>
          <span class="muted form-shortcut"><kbd>Ctrl</kbd>+<kbd>Enter</kbd></span>
        </div>
      </form>
      {error && <ErrorState error={error} compact />}
      {result && <TryOutcome result={result} rules={rules} />}
    </Card>
  );
}
