// A response: status, size and timings (DNS, connect, TLS, first byte, total, where measured), then the body
// pretty-printed when it is JSON, raw otherwise, and the headers. A cut body says where and why.
import { useState } from 'preact/hooks';
import { Badge } from '../../../components/badge.js';
import { Segmented } from '../../../components/segmented.js';
import { formatBytes, statusTone, type ApiSendResult } from './client-api.js';

type View = 'body' | 'raw' | 'headers';

const ms = (v: number | null) => (v === null ? '—' : `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`);

export function ResponsePanel({ r }: { r: ApiSendResult }) {
  const [view, setView] = useState<View>('body');
  const t = r.timings;
  const cut = r.truncated || r.shown_bytes < r.size_bytes;
  return (
    <div class="ac-response" aria-label="Response">
      <div class="ac-response-summary" role="status">
        <Badge tone={statusTone(r.status)}>{r.status} {r.status_text}</Badge>
        <span>{formatBytes(r.size_bytes)}{r.truncated ? ' (cut)' : ''}</span>
        <span>{ms(t.total_ms)}</span>
        <span class="muted ac-response-url">{r.method} {r.url}</span>
      </div>
      <dl class="ac-timings">
        <div><dt>DNS</dt><dd>{ms(t.dns_ms)}</dd></div>
        <div><dt>Connect</dt><dd>{ms(t.connect_ms)}</dd></div>
        <div><dt>TLS</dt><dd>{ms(t.tls_ms)}</dd></div>
        <div><dt>First byte</dt><dd>{ms(t.first_byte_ms)}</dd></div>
        <div><dt>Total</dt><dd>{ms(t.total_ms)}</dd></div>
      </dl>
      <Segmented<View> label="Response view" value={view} onChange={setView}
        options={[{ value: 'body', label: r.pretty !== null ? 'Pretty' : 'Body' }, { value: 'raw', label: 'Raw' }, { value: 'headers', label: `Headers (${r.headers.length})` }]} />
      {cut && view !== 'headers' && (
        <p class="ac-note" role="note">
          {r.truncated ? `The body went on past the ${formatBytes(r.size_bytes)} read cap (apiclient.max_response_bytes); reading stopped there. ` : ''}
          {r.shown_bytes < r.size_bytes ? `Showing the first ${formatBytes(r.shown_bytes)} of ${formatBytes(r.size_bytes)} (apiclient.display_bytes).` : ''}
        </p>
      )}
      {view === 'headers' ? (
        <table class="ac-headers">
          <caption class="sr-only">Response headers</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead>
          <tbody>{r.headers.map(([n, v], i) => <tr key={i}><th scope="row">{n}</th><td>{v}</td></tr>)}</tbody>
        </table>
      ) : r.binary ? (
        <p class="ac-note">The body is binary ({r.content_type || 'no content type'}): it is not shown as text.</p>
      ) : (
        <pre class="ac-body" tabIndex={0} aria-label="Response body">{(view === 'body' && r.pretty) || r.body || '(empty body)'}</pre>
      )}
    </div>
  );
}
