// The left column (a drawer on narrow screens): collections with their folders, flows, and the last sends.
import { Badge } from '../../../components/badge.js';
import { formatAgo } from '../../../format/time.js';
import { statusTone, type ApiCollection, type ApiFlow, type ApiHistoryEntry, type ApiRequest } from './client-api.js';

export interface SidebarProps {
  collections: ApiCollection[];
  flows: ApiFlow[];
  history: ApiHistoryEntry[];
  current: { requestId?: string; flowId?: string };
  onOpenRequest(c: ApiCollection, r: ApiRequest): void;
  onOpenHistory(h: ApiHistoryEntry): void;
  onOpenFlow(f: ApiFlow): void;
  onNewFlow(): void;
}

function byFolder(requests: ApiRequest[]): [string, ApiRequest[]][] {
  const groups = new Map<string, ApiRequest[]>();
  for (const r of requests) groups.set(r.folder, [...(groups.get(r.folder) ?? []), r]);
  return [...groups];
}

export function Sidebar({ collections, flows, history, current, onOpenRequest, onOpenHistory, onOpenFlow, onNewFlow }: SidebarProps) {
  return (
    <nav class="ac-sidebar" aria-label="Collections, flows and history">
      <h2 class="ac-side-title">Collections</h2>
      {collections.length === 0 && <p class="muted ac-side-empty">None yet: import one, or save a request.</p>}
      {collections.map((c) => (
        <details key={c.id} class="ac-collection" open>
          <summary>{c.name} <span class="muted">({c.requests.length})</span></summary>
          {byFolder(c.requests).map(([folder, requests]) => (
            <div key={folder} class="ac-folder">
              {folder && <p class="ac-folder-name">{folder}</p>}
              <ul class="ac-tree">
                {requests.map((r) => (
                  <li key={r.id}>
                    <button type="button" class="ac-item" aria-current={current.requestId === r.id ? 'true' : undefined} onClick={() => onOpenRequest(c, r)}>
                      <span class={`ac-verb ac-verb-${r.method.toLowerCase()}`}>{r.method}</span><span class="ac-item-name">{r.name || r.url}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </details>
      ))}
      <div class="ac-side-head">
        <h2 class="ac-side-title">Flows</h2>
        <button type="button" class="button button-ghost button-small" onClick={onNewFlow}>New flow</button>
      </div>
      {flows.length === 0 && <p class="muted ac-side-empty">A flow chains requests and carries values (a token) from one answer to the next.</p>}
      <ul class="ac-tree">
        {flows.map((f) => (
          <li key={f.id}>
            <button type="button" class="ac-item" aria-current={current.flowId === f.id ? 'true' : undefined} onClick={() => onOpenFlow(f)}>
              <span class="ac-verb">FLOW</span><span class="ac-item-name">{f.name} <span class="muted">· {f.steps.length} steps</span></span>
            </button>
          </li>
        ))}
      </ul>
      <h2 class="ac-side-title">History</h2>
      {history.length === 0 && <p class="muted ac-side-empty">Requests you send appear here (the last 50).</p>}
      <ul class="ac-tree ac-history">
        {history.map((h) => (
          <li key={h.id}>
            <button type="button" class="ac-item" onClick={() => onOpenHistory(h)}>
              <span class={`ac-verb ac-verb-${h.method.toLowerCase()}`}>{h.method}</span>
              <span class="ac-item-name ac-mono">{h.url}</span>
              <span class="ac-item-meta">{h.status === null ? <Badge tone="danger">no answer</Badge> : <Badge tone={statusTone(h.status)}>{h.status}</Badge>}<span class="muted">{formatAgo(h.at)}</span></span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
