// One captured request, as stored: what was asked and answered, what the policy did to it, every masked value
// marked with the rule that masked it, and the request as a curl command.
import { useEffect, useState } from 'preact/hooks';
import { Badge, statusTone } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { Fact } from '../../components/fact.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { countRedacted, JsonView, REDACTED } from '../../components/json-view.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { isAbort, postJson } from '../../data/api.js';
import { useResource } from '../../data/use-resource.js';
import { CodeBlock } from '../../components/code-block.js';
import { formatLatency } from '../../format/numbers.js';
import { formatDateTime } from '../../format/time.js';
import { Link } from '../../shell/router.js';
import type { PageProps } from '../types.js';
import { shellInfo } from '../../shell/shell-info.js';
import { curlCommand } from './curl-command.js';
import { reachableUrl, type GatewayRecord, type ProxyStatus } from './gateway-api.js';
import { maskedFields, maskRuleText, PART_NAMES, type MaskSource } from './masked-fields.js';
import { Ticks } from './ticks.js';

function Headers({ headers, label }: { headers: GatewayRecord['headers']; label: string }) {
  if (headers === null) return <p class="muted">Not captured: a rule restricts headers on this route.</p>;
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p class="muted">None.</p>;
  return (
    <table class="table kv-table">
      <caption class="sr-only">{label}</caption>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{(Array.isArray(value) ? value : [value]).map((v, i) => (
              <div key={i}>{v === REDACTED ? <mark class="redacted" title="Masked by the policy">{REDACTED}</mark> : <code>{v}</code>}</div>
            ))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Body({ value, label, why }: { value: unknown; label: string; why: string | null }) {
  if (value === null || value === undefined) return <p class="muted">{why ?? 'Not kept: empty, restricted by a rule, or sampled out.'}</p>;
  return <JsonView value={value} label={label} />;
}

/** Each masked place of the record and the rule that masks it, by the rules in force (POST /api/gateway/policy/mask-sources). */
function MaskedBy({ r }: { r: GatewayRecord }) {
  const [sources, setSources] = useState<MaskSource[] | 'failed'>();
  useEffect(() => {
    const fields = maskedFields(r);
    if (fields.length === 0) return undefined;
    const abort = new AbortController();
    postJson<{ fields: MaskSource[] }>('/api/gateway/policy/mask-sources', { matched_rules: r.matched_rules, fields }, { signal: abort.signal, what: 'the rules behind the masks' })
      .then((answer) => setSources(answer.fields), (err) => { if (!isAbort(err)) setSources('failed'); });
    return () => abort.abort();
  }, [r.id]);
  if (sources === undefined) return null;
  if (sources === 'failed') return <p class="muted">Which rule masked each value could not be read; the values stay marked below.</p>;
  return (
    <table class="table kv-table masked-by">
      <caption class="sr-only">Masked values and the rule that masked each</caption>
      <tbody>
        {sources.map((m) => (
          <tr key={`${m.part} ${m.field}`}>
            <th scope="row"><span class="masked-part">{PART_NAMES[m.part]}</span> {m.field}{m.span && <span class="muted"> (part of the value)</span>}</th>
            <td>
              {m.rules.length ? m.rules.map((x) => (
                <div key={x.rule}><Badge>{x.rule}</Badge> <span class="muted"><Ticks text={maskRuleText(x)} /></span></div>
              )) : <span class="muted">{r.agent_masked?.length ? 'Masked by the agent\'s policy (see below)' : 'No rule in force masks it now: the rule changed after this request'}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The request as a curl command through the gateway, masked values left masked. */
function AsCurl({ r }: { r: GatewayRecord }) {
  const proxyOn = shellInfo.value?.plugins.includes('proxy') ?? false;
  const proxy = useResource<ProxyStatus>(proxyOn ? '/api/gateway/proxy' : null, 'the gateway\'s address');
  const base = proxy.data ? reachableUrl(proxy.data.url, window.location.hostname) : 'http://127.0.0.1:8080';
  return (
    <Card title="As curl" description="The request as captured, through the gateway. Masked values stay masked: put the real ones back to replay it.">
      <CodeBlock label="Copy as curl" language="shell" code={curlCommand(r, base)} />
    </Card>
  );
}

export default function RequestPage({ params }: PageProps) {
  const record = useResource<GatewayRecord>(`/api/gateway/records/${encodeURIComponent(params.id)}`, 'the request');
  const back = <Link href="/gateway/requests" class="button button-secondary">All requests</Link>;
  if (record.error?.kind === 'not_found') {
    return (
      <>
        <PageHeader title="Request" subtitle={`Record ${params.id}`} />
        <Card>
          <EmptyState icon="record" title="This request is not stored" actions={back}>
            <p>No record has this id: it was never captured, or retention has deleted it (capture keeps records for <code class="inline-code">capture.retention</code>, 7 days by default).</p>
          </EmptyState>
        </Card>
      </>
    );
  }
  const r = record.data;
  const masked = r ? countRedacted(r) : 0;
  return (
    <>
      <PageHeader title={r ? `${r.method} ${r.path}` : 'Request'} subtitle={r ? `${formatDateTime(r.time)} · record ${r.id}` : `Record ${params.id}`}
        actions={r && <>
          <Badge tone={statusTone(r.status)}>{r.status || 'no answer'}</Badge>
          <Badge>{formatLatency(r.duration_ms)}</Badge>
          {masked > 0 && <Badge title="Values the policy masked before storage">{masked} masked</Badge>}
          {back}
        </>} />
      {record.error && <ErrorState error={record.error} onRetry={record.reload} />}
      {record.loading && <Loading label="Loading the request" lines={8} />}
      {r && (
        <div class="stack">
          <Card title="What the policy did">
            <dl class="facts">
              <Fact term="Rules matched">{r.matched_rules.length ? r.matched_rules.map((m) => <Badge key={m}>{m}</Badge>) : 'none'}</Fact>
              <Fact term="Route">{r.route.length ? r.route.map((g) => <code class="inline-code" key={g}>{g}</code>) : 'unmatched'}</Fact>
              <Fact term="Labels">{Object.keys(r.labels).length ? Object.entries(r.labels).map(([k, v]) => <Badge key={k}>{k}: {v || '""'}</Badge>) : 'none'}</Fact>
              <Fact term="Bodies">{r.sampled ? 'kept (sampled in)' : 'not kept (sampled out)'}{r.truncated ? '; cut at the capture limit' : ''}</Fact>
              <Fact term="Masked values">{masked ? <>{masked}, shown as {REDACTED}<MaskedBy r={r} /></> : 'none'}</Fact>
              {r.tokens !== null && <Fact term="Tokens metered">{r.tokens}</Fact>}
              {r.error && <Fact term="Gateway error"><code class="inline-code">{r.error}</code></Fact>}
              {r.dropped_reason && <Fact term="Why a body is missing">{r.dropped_reason}</Fact>}
              {r.agent_masked && (
                <Fact term="Masked by the agent">
                  Sent in clear by the middleware, masked or removed by this agent's policy:
                  <span class="code-chips">{r.agent_masked.map((p) => <code class="inline-code" key={p}>{p}</code>)}</span>
                </Fact>
              )}
            </dl>
          </Card>
          <div class="detail-grid">
            <Card title="Request">
              <h3 class="detail-heading">Query</h3>
              {Object.keys(r.query).length ? <Headers headers={r.query} label="Query parameters" /> : <p class="muted">None.</p>}
              <h3 class="detail-heading">Headers</h3>
              <Headers headers={r.headers} label="Request headers" />
              <h3 class="detail-heading">Body</h3>
              <Body value={r.request_body} label="Request body" why={r.dropped_reason} />
            </Card>
            <Card title="Response">
              <h3 class="detail-heading">Headers</h3>
              <Headers headers={r.response_headers} label="Response headers" />
              <h3 class="detail-heading">Body</h3>
              <Body value={r.response_body} label="Response body" why={r.dropped_reason} />
            </Card>
          </div>
          <AsCurl r={r} />
        </div>
      )}
    </>
  );
}
