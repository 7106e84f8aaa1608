// The gateway's policy: the rules in force, in the order they apply, each with what it does and the routes it
// matched in the last 24 hours (GET /api/gateway/policy, /api/gateway/policy/usage), and "try a request" beside
// them, which marks the rules a tried request matches.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { useLive, useWhileVisible } from '../../data/live.js';
import { throttle } from '../../data/throttle.js';
import { useResource } from '../../data/use-resource.js';
import { countFormat, formatInteger } from '../../format/numbers.js';
import { formatDateTime } from '../../format/time.js';
import { LiveBadge } from '../../shell/live-badge.js';
import { Link } from '../../shell/router.js';
import { shellInfo } from '../../shell/shell-info.js';
import type { Policy, PolicyRule, PolicyUsage, RuleRoute, RuleUsage, TryResult, UnmatchedUsage } from './policy-api.js';
import { matchText, ruleBadges, ruleSentences, ruleYaml } from './rule-text.js';
import { Ticks } from './ticks.js';
import { TryPanel } from './try-panel.js';

/** Usage refreshes at most this often while traffic flows, in ms. */
const LIVE_REFRESH_MS = 10_000;
/** The rules change only on a reload (SIGHUP): looked at again this often while the page is visible. */
const POLICY_REFRESH_MS = 60_000;

export const FIRST_RULE = 'rules:\n  - name: all-traffic\n    match: { path: /** }';

const requestsText = (n: number): string => (n === 1 ? '1 request' : `${formatInteger(n)} requests`);

const routeColumns = (rule: PolicyRule | null, total: number): Column<RuleRoute>[] => [
  { key: 'method', label: 'Method', value: (r) => r.method, card: 'lead', render: (r) => <span class="method">{r.method}</span> },
  {
    key: 'path', label: 'Path', value: (r) => r.path, card: 'top',
    render: (r) => (rule
      ? <Link href={`/gateway/requests?route=${encodeURIComponent(rule.match.path)}`} class="route-link" title={`Show the requests of ${rule.match.path}`}><code>{r.path}</code></Link>
      : <code class="rule-path">{r.path}</code>),
  },
  {
    key: 'requests', label: 'Requests', align: 'end', value: (r) => r.requests, numbers: countFormat, card: 'main',
    render: (r, text) => (
      <span class="share">
        <span class="share-bar" aria-hidden="true"><span style={{ width: `${total ? Math.max(2, (r.requests / total) * 100) : 0}%` }} /></span>
        {text}
      </span>
    ),
  },
];

function RuleRoutes({ rule, usage, label }: { rule: PolicyRule | null; usage: RuleUsage | UnmatchedUsage | undefined; label: string }) {
  const columns = useMemo(() => routeColumns(rule, usage?.requests ?? 0), [rule, usage?.requests]);
  if (!usage || usage.requests === 0) return <p class="muted">No request matched {rule ? 'this rule' : ''} in the last 24 hours.</p>;
  return (
    <>
      <div class="rule-routes">
        <Table caption={label} columns={columns} rows={usage.routes} rowKey={(r) => `${r.method} ${r.path}`}
          initialSort={{ key: 'requests', direction: 'descending' }} />
      </div>
      {usage.other_routes > 0 && (
        <p class="muted rule-more">
          And {formatInteger(usage.other_routes)} more {usage.other_routes === 1 ? 'route' : 'routes'} ({requestsText(usage.other_requests)}).
        </p>
      )}
    </>
  );
}

/** A rule's requests in the last day; a dash while they are being counted. */
function Count({ requests }: { requests: number | undefined }) {
  if (requests === undefined) return <span class="rule-count muted">–<span class="sr-only">counting requests</span></span>;
  return <span class={`rule-count${requests ? '' : ' muted'}`}>{requestsText(requests)}<span class="sr-only"> in the last 24 hours</span></span>;
}

function RuleItem({ rule, usage, counted, open, matched, onToggle }: {
  rule: PolicyRule; usage: RuleUsage | undefined; counted: boolean; open: boolean; matched: boolean; onToggle(): void;
}) {
  const details = `rule-${rule.index}-details`;
  const count = usage?.requests ?? 0;
  return (
    <li class={`rule${matched ? ' rule-matched' : ''}${open ? ' rule-open' : ''}`} data-rule={rule.name}>
      <h3 class="rule-heading">
        <button type="button" class="rule-toggle" aria-expanded={open} aria-controls={details} onClick={onToggle}>
          <span class="rule-index" aria-hidden="true">{rule.index + 1}</span>
          <span class="rule-title">
            <span class="rule-name">{rule.name}</span>
            <span class="rule-match"><Ticks text={matchText(rule)} /></span>
          </span>
          <span class="rule-badges">
            {matched && <Badge tone="success" title="The tried request matches this rule">matched</Badge>}
            {ruleBadges(rule).map((b) => <Badge key={b.kind} tone={b.tone} title={b.title}>{b.text}</Badge>)}
          </span>
          <Count requests={counted ? count : undefined} />
          <Icon name="arrow-right" class="rule-chevron" />
        </button>
      </h3>
      <div id={details} class="rule-details" hidden={!open}>
        <ul class="rule-sentences">{ruleSentences(rule).map((s) => <li key={s}><Ticks text={s} /></li>)}</ul>
        <div class="rule-config">
          <CodeBlock label={`Rule ${rule.name} as YAML`} language="yaml" code={ruleYaml(rule)} />
          {rule.source && <p class="muted rule-source">Written at <code class="inline-code">{shortFile(rule.source.file)}:{rule.source.line}</code></p>}
        </div>
        <h4 class="detail-heading">Matched in the last 24 hours</h4>
        {counted
          ? <RuleRoutes rule={rule} usage={usage} label={`Routes rule ${rule.name} matched in the last 24 hours`} />
          : <Loading label="Counting the requests of this rule" lines={2} />}
        {count > 0 && (
          <Link href={`/gateway/requests?route=${encodeURIComponent(rule.match.path)}`} class="button button-secondary button-small rule-requests-link">
            Requests of <code>{rule.match.path}</code> <Icon name="arrow-right" />
          </Link>
        )}
      </div>
    </li>
  );
}

/** The last two parts of a path: enough to recognise the file, short enough for a phone. */
function shortFile(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : file;
}

function NoRules({ file }: { file: string }) {
  return (
    <Card>
      <EmptyState icon="policy" title="No rules: everything is captured as it is">
        <p>Without rules the gateway keeps every header and body it sees. Add a rule to <code class="inline-code">{file}</code>; this one names all traffic, so its records say which rule let them through:</p>
        <CodeBlock label="A first rule" language="yaml" code={FIRST_RULE} />
        <p>Then reload the config (<code class="inline-code">kill -HUP</code> the <code class="inline-code">vigil run</code> process) and add what it should mask: <code class="inline-code">redact: {'{ headers: [Authorization] }'}</code>.</p>
      </EmptyState>
    </Card>
  );
}

function Unmatched({ usage, open, onToggle }: { usage: UnmatchedUsage; open: boolean; onToggle(): void }) {
  return (
    <li class={`rule rule-unmatched${open ? ' rule-open' : ''}`}>
      <h3 class="rule-heading">
        <button type="button" class="rule-toggle" aria-expanded={open} aria-controls="rule-none-details" onClick={onToggle}>
          <span class="rule-index" aria-hidden="true">–</span>
          <span class="rule-title">
            <span class="rule-name">No rule</span>
            <span class="rule-match">Requests no rule matched: captured in full</span>
          </span>
          <span class="rule-badges" />
          <Count requests={usage.requests} />
          <Icon name="arrow-right" class="rule-chevron" />
        </button>
      </h3>
      <div id="rule-none-details" class="rule-details" hidden={!open}>
        <RuleRoutes rule={null} usage={usage} label="Routes no rule matched in the last 24 hours" />
      </div>
    </li>
  );
}

export default function PolicyPage() {
  const policy = useResource<Policy>('/api/gateway/policy', 'the policy');
  const usage = useResource<PolicyUsage>('/api/gateway/policy/usage?range=24h', 'what each rule matched');
  const refresh = useMemo(() => throttle(usage.reload, LIVE_REFRESH_MS), [usage.reload]);
  useEffect(() => () => refresh.cancel(), [refresh]);
  useLive('gateway.record', refresh);
  useWhileVisible(policy.reload, POLICY_REFRESH_MS);

  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState<TryResult>();
  const toggle = (key: string) => setOpen((s) => {
    const next = new Set(s);
    if (!next.delete(key)) next.add(key);
    return next;
  });

  const p = policy.data;
  const byRule = useMemo(() => new Map((usage.data?.rules ?? []).map((u) => [u.rule, u])), [usage.data]);
  const matched = new Set(tried?.matched_rules ?? []);
  const file = p?.config_file ?? shellInfo.value?.config_file ?? 'the config file';
  const allOpen = p !== undefined && p.rules.length > 0 && p.rules.every((r) => open.has(r.name));

  return (
    <>
      <PageHeader title="Policy" subtitle="The rules in force, in the order they apply, and what each matched in the last 24 hours."
        actions={<LiveBadge />} />
      {policy.error && <ErrorState error={policy.error} onRetry={policy.reload} />}
      {policy.loading && <Loading label="Loading the policy" lines={6} />}
      {p && (
        <div class="policy-layout">
          <div class="policy-rules">
            {p.rules.length === 0 ? <NoRules file={file} /> : (
              <Card title={`${p.rules.length} ${p.rules.length === 1 ? 'rule' : 'rules'}`} padded={false}
                description={<>Every matching rule applies, top to bottom. Loaded {formatDateTime(p.loaded_at)}{p.reloads ? `, after ${p.reloads} ${p.reloads === 1 ? 'reload' : 'reloads'}` : ''}{p.config_file ? <> from <code class="inline-code" title={p.config_file}>{shortFile(p.config_file)}</code></> : ''}.</>}
                actions={<button type="button" class="button button-ghost button-small"
                  onClick={() => setOpen(allOpen ? new Set() : new Set(p.rules.map((r) => r.name)))}>{allOpen ? 'Collapse all' : 'Expand all'}</button>}>
                {usage.error && <div class="rule-usage-error"><ErrorState error={usage.error} onRetry={usage.reload} compact /></div>}
                <ol class="rule-list">
                  {p.rules.map((rule) => (
                    <RuleItem key={`${rule.index}-${rule.name}`} rule={rule} usage={byRule.get(rule.name)} counted={usage.data !== undefined} open={open.has(rule.name)}
                      matched={matched.has(rule.name)} onToggle={() => toggle(rule.name)} />
                  ))}
                  {usage.data && usage.data.unmatched.requests > 0 && (
                    <Unmatched usage={usage.data.unmatched} open={open.has('')} onToggle={() => toggle('')} />
                  )}
                </ol>
              </Card>
            )}
          </div>
          <div class="policy-try">
            <TryPanel rules={p.rules} result={tried} onResult={setTried} />
          </div>
        </div>
      )}
    </>
  );
}
