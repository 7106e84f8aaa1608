// The API client (Host > API client): collections on the left (a drawer on narrow screens), the request editor with
// its response below, environments, flows and the last 50 sends. Everything is sent by the server under a timeout
// and a byte cap; each send is in the audit log. Secret variables are stored encrypted and never come to this page.
import { useEffect, useState } from 'preact/hooks';
import { Badge } from '../../../components/badge.js';
import { Card } from '../../../components/card.js';
import { CodeBlock } from '../../../components/code-block.js';
import { EmptyState } from '../../../components/empty-state.js';
import { ErrorState } from '../../../components/error-state.js';
import { PageHeader } from '../../../components/page-header.js';
import { Loading } from '../../../components/skeleton.js';
import type { ApiError } from '../../../data/api-error.js';
import { getJson, postJson } from '../../../data/api.js';
import { useResource } from '../../../data/use-resource.js';
import { announce } from '../../../shell/announcer.js';
import { here } from '../../../shell/router.js';
import { shellInfo } from '../../../shell/shell-info.js';
import { readText } from '../../../shell/url-state.js';
import {
  blankRequest, newId, saveStore, type ApiCollection, type ApiExportResult, type ApiFlow, type ApiImportResult, type ApiRequest, type ApiSendResult, type ApiStore,
} from './client-api.js';
import { EnvironmentPanel } from './environment-panel.js';
import { FlowPanel } from './flow-panel.js';
import { ImportPanel } from './import-panel.js';
import { RequestEditor } from './request-editor.js';
import { ResponsePanel } from './response-panel.js';
import { Sidebar } from './sidebar.js';

const ENABLE_SNIPPET = `apiclient:
  timeout: 30s                 # per request, connect to last byte
  max_response_bytes: 10485760 # bytes of a body read at most`;

type Panel = { kind: 'request' } | { kind: 'import' } | { kind: 'env'; id: string } | { kind: 'flow'; id: string };

export default function ApiClientPage() {
  const enabled = shellInfo.value?.plugins.includes('apiclient') ?? false;
  const loaded = useResource<ApiStore>(enabled ? '/api/httpstore' : null, 'the API client\'s store');
  const [store, setStore] = useState<ApiStore>();
  useEffect(() => { if (loaded.data) setStore(loaded.data); }, [loaded.data]);
  const [panel, setPanel] = useState<Panel>(readText(here.value.search, 'import') === '1' ? { kind: 'import' } : { kind: 'request' });
  const [draft, setDraft] = useState<ApiRequest>();
  const [origin, setOrigin] = useState<string | null>(null);
  const [response, setResponse] = useState<ApiSendResult>();
  const [snippet, setSnippet] = useState<{ label: string; text: string; secrets: string[] }>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const [lastFlow, setLastFlow] = useState<string>();
  const header = <PageHeader title="API client" subtitle="Collections, environments and flows; requests sent by the server under a timeout and a size cap, each one audited." />;
  if (!enabled) {
    return <>{header}<EmptyState icon="api" title="The API client is not on" actions={<CodeBlock label="the config that turns the API client on" language="yaml" code={ENABLE_SNIPPET} />}>Add these lines to the config file and restart Vigil.</EmptyState></>;
  }
  if (!store) return <>{header}{loaded.error ? <ErrorState error={loaded.error} onRetry={loaded.reload} /> : <Loading label="Loading the collections" lines={4} />}</>;

  const guard = async (fn: () => Promise<void>) => { setError(undefined); try { await fn(); } catch (err) { setError(err as ApiError); } };
  const change = async (c: Parameters<typeof saveStore>[0]) => setStore(await saveStore(c));
  const open = (r: ApiRequest, from: string | null) => { setDraft(structuredClone(r)); setOrigin(from); setResponse(undefined); setSnippet(undefined); setPanel({ kind: 'request' }); setDrawer(false); };
  const send = () => guard(async () => {
    if (!draft) return;
    setBusy(true);
    try {
      const r = await postJson<ApiSendResult>('/api/http', { request: draft }, { what: 'the request' });
      setResponse(r);
      announce(`${r.status} ${r.status_text}`);
    } catch (err) {
      setResponse(undefined);
      throw err;
    } finally {
      setBusy(false);
      // The send is in the history now.
      setStore(await getJson<ApiStore>('/api/httpstore').catch(() => store));
    }
  });
  const save = () => guard(async () => {
    if (!draft) return;
    const target = store.collections.find((c) => c.id === origin) ?? store.collections[0] ?? { id: newId('c'), name: 'My requests', requests: [] };
    const has = target.requests.some((r) => r.id === draft.id);
    const updated: ApiCollection = { ...target, requests: has ? target.requests.map((r) => (r.id === draft.id ? draft : r)) : [...target.requests, draft] };
    const others = store.collections.filter((c) => c.id !== target.id);
    await change({ collections: store.collections.some((c) => c.id === target.id) ? store.collections.map((c) => (c.id === target.id ? updated : c)) : [...others, updated] });
    setOrigin(target.id);
    announce(`Saved in ${target.name}.`);
  });
  const remove = () => guard(async () => {
    if (!draft || !origin) return;
    await change({ collections: store.collections.map((c) => (c.id === origin ? { ...c, requests: c.requests.filter((r) => r.id !== draft.id) } : c)) });
    setDraft(undefined);
    announce('The request is deleted.');
  });
  const exportAs = (format: 'curl' | 'http') => guard(async () => {
    if (!draft) return;
    const r = await postJson<ApiExportResult>('/api/http/export', { request: draft, format }, { what: 'the export' });
    setSnippet({ label: format === 'curl' ? 'curl command' : 'raw HTTP request', text: r.text, secrets: r.secrets });
  });
  const addToFlow = () => guard(async () => {
    if (!draft) return;
    const flow = store.flows.find((f) => f.id === lastFlow) ?? store.flows[0] ?? { id: newId('f'), name: 'New flow', steps: [] };
    const next = { ...flow, steps: [...flow.steps, { request: structuredClone(draft), extract: [] }] };
    await change({ flows: store.flows.some((f) => f.id === flow.id) ? store.flows.map((f) => (f.id === flow.id ? next : f)) : [...store.flows, next] });
    setLastFlow(flow.id);
    announce(`Added as step ${next.steps.length} of ${flow.name}.`);
  });
  const imported = async (r: ApiImportResult) => {
    const envs = r.variables.length ? [...store.environments, { id: newId('e'), name: r.collection.name, variables: r.variables }] : store.environments;
    const activeEnv = store.active_env ?? (r.variables.length ? envs[envs.length - 1].id : null);
    await change({ collections: [...store.collections, r.collection], environments: envs, active_env: activeEnv });
    announce(`Imported ${r.collection.requests.length} requests from ${r.format}.`);
    setPanel({ kind: 'request' });
    if (r.collection.requests[0]) open(r.collection.requests[0], r.collection.id);
  };
  const activeEnv = store.environments.find((e) => e.id === store.active_env);
  const envPanel = panel.kind === 'env' ? store.environments.find((e) => e.id === panel.id) : undefined;
  const flowPanel = panel.kind === 'flow' ? store.flows.find((f) => f.id === panel.id) : undefined;
  const empty = store.collections.length === 0 && store.history.length === 0 && !draft;

  return (
    <>
      {header}
      <div class="ac-toolbar">
        <button type="button" class="button ac-drawer-toggle" aria-expanded={drawer} aria-controls="ac-sidebar" onClick={() => setDrawer(!drawer)}>Collections</button>
        <button type="button" class="button button-primary" onClick={() => open(blankRequest(), null)}>New request</button>
        <button type="button" class="button" onClick={() => setPanel({ kind: 'import' })}>Import</button>
        <div class="ac-env-pick">
          <label class="field-label" for="ac-env">Environment</label>
          <select id="ac-env" class="input" value={store.active_env ?? ''} onChange={(e) => void guard(() => change({ active_env: e.currentTarget.value || null }))}>
            <option value="">No environment</option>
            {store.environments.map((e) => <option key={e.id} value={e.id}>{e.name}</option>)}
          </select>
          {activeEnv && <button type="button" class="button button-ghost button-small" onClick={() => setPanel({ kind: 'env', id: activeEnv.id })}>Edit</button>}
          <button type="button" class="button button-ghost button-small" onClick={() => void guard(async () => {
            const env = { id: newId('e'), name: `Environment ${store.environments.length + 1}`, variables: [{ name: 'baseUrl', value: '', secret: false }] };
            await change({ environments: [...store.environments, env], active_env: env.id });
            setPanel({ kind: 'env', id: env.id });
          })}>New environment</button>
        </div>
      </div>
      {error && <ErrorState error={error} compact />}
      <div class={`ac-page${drawer ? ' ac-drawer-open' : ''}`}>
        {drawer && <div class="ac-scrim" aria-hidden="true" onClick={() => setDrawer(false)} />}
        <div id="ac-sidebar" class="ac-side-wrap" onKeyDown={(e) => { if (e.key === 'Escape') setDrawer(false); }}>
          <button type="button" class="button button-ghost button-small ac-drawer-close" onClick={() => setDrawer(false)}>Close</button>
          <Sidebar collections={store.collections} flows={store.flows} history={store.history} current={{ requestId: draft?.id, flowId: flowPanel?.id }}
            onOpenRequest={(c, r) => open(r, c.id)} onOpenHistory={(h) => open({ ...h.request, id: newId('r') }, null)}
            onOpenFlow={(f) => { setPanel({ kind: 'flow', id: f.id }); setLastFlow(f.id); setDrawer(false); }}
            onNewFlow={() => void guard(async () => {
              const f: ApiFlow = { id: newId('f'), name: `Flow ${store.flows.length + 1}`, steps: [] };
              await change({ flows: [...store.flows, f] });
              setPanel({ kind: 'flow', id: f.id });
              setLastFlow(f.id);
            })} />
        </div>
        <div class="ac-main stack">
          {panel.kind === 'import' && <ImportPanel onImported={imported} onCancel={() => setPanel({ kind: 'request' })} />}
          {envPanel && <EnvironmentPanel env={envPanel} onClose={() => setPanel({ kind: 'request' })}
            onSave={async (e) => { await change({ environments: store.environments.map((x) => (x.id === e.id ? e : x)) }); announce('The environment is saved.'); }}
            onDelete={async () => { await change({ environments: store.environments.filter((x) => x.id !== envPanel.id), ...(store.active_env === envPanel.id ? { active_env: null } : {}) }); setPanel({ kind: 'request' }); }} />}
          {flowPanel && <FlowPanel flow={flowPanel} onClose={() => setPanel({ kind: 'request' })}
            onSave={async (f) => change({ flows: store.flows.map((x) => (x.id === f.id ? f : x)) })}
            onDelete={async () => { await change({ flows: store.flows.filter((x) => x.id !== flowPanel.id) }); setPanel({ kind: 'request' }); }} />}
          {panel.kind === 'request' && empty && (
            <EmptyState icon="api" title="No requests yet"
              actions={<><button type="button" class="button button-primary" onClick={() => setPanel({ kind: 'import' })}>Import a collection</button><button type="button" class="button" onClick={() => open(blankRequest(), null)}>Write a request</button></>}>
              <p>Import a Postman or Insomnia collection, an OpenAPI document or curl commands — or write a request and send it.</p>
            </EmptyState>
          )}
          {panel.kind === 'request' && !empty && !draft && (
            <EmptyState compact icon="arrow-right" title="Open a request"><p>Pick one from the collections or the history, or start a new one.</p></EmptyState>
          )}
          {panel.kind === 'request' && draft && (
            <Card title={draft.name || 'Request'} description={activeEnv ? <>Variables from <Badge>{activeEnv.name}</Badge></> : 'No environment: {{placeholders}} stay unfilled.'}>
              <div class="field ac-name">
                <label class="field-label" for="ac-name">Name</label>
                <input id="ac-name" class="input" value={draft.name} onInput={(e) => setDraft({ ...draft, name: e.currentTarget.value })} />
              </div>
              <RequestEditor request={draft} busy={busy} onChange={setDraft} onSend={() => void send()} />
              <div class="form-actions ac-actions">
                <button type="button" class="button button-small" onClick={() => void save()}>Save</button>
                <button type="button" class="button button-small" onClick={() => void exportAs('curl')}>Copy as curl</button>
                <button type="button" class="button button-small" onClick={() => void exportAs('http')}>Raw HTTP</button>
                <button type="button" class="button button-small" onClick={() => void addToFlow()}>Add to flow</button>
                {origin && <button type="button" class="button button-ghost button-small" onClick={() => void remove()}>Delete</button>}
              </div>
              {snippet && (
                <div class="ac-snippet">
                  <CodeBlock label={snippet.label} language={snippet.label.startsWith('curl') ? 'bash' : 'http'} code={snippet.text} />
                  {snippet.secrets.length > 0 && <p class="field-hint">Secret variables are not in the snippet: set {snippet.secrets.map((s) => s.toUpperCase()).join(', ')} in the shell first, as its first line says.</p>}
                </div>
              )}
            </Card>
          )}
          {panel.kind === 'request' && response && <Card title="Response"><ResponsePanel r={response} /></Card>}
        </div>
      </div>
    </>
  );
}
