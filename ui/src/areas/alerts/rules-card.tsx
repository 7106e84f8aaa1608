// The rules with what their last evaluation saw; the config file's are read-only, said once above the table.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { Table, type Column } from '../../components/table.js';
import { deleteJson } from '../../data/api.js';
import { formatAgo } from '../../format/time.js';
import { announce } from '../../shell/announcer.js';
import type { AlertRule } from './alerts-api.js';
import { ConfirmAction } from './confirm-action.js';
import { Link } from '../../shell/router.js';
import { EXAMPLE_RULE } from './rule-form.js';
import { conditionText, formatDuration, scopeText } from './rule-text.js';

export function RulesCard({ rules, onNew, onEdit, onChanged }: { rules: AlertRule[]; onNew(): void; onEdit(rule: AlertRule): void; onChanged(): void }) {
  const fromConfig = rules.filter((r) => r.origin === 'config').length;
  const columns: Column<AlertRule>[] = [
    {
      key: 'name', label: 'Rule', card: 'top', value: (r) => r.name,
      render: (r) => <div><strong>{r.name}</strong>{r.origin === 'config' && <> <Badge title="Declared in the config file, which owns it">config file</Badge></>}{r.origin === 'plugin' && <> <Badge title="A host rule: change it on the Host alerts page">host</Badge></>}<div class="muted small">{r.source} · {scopeText(r.scope)}</div></div>,
    },
    {
      key: 'condition', label: 'Fires when', value: (r) => conditionText(r.condition),
      // A prompt version fires as it is made: it has no window and no samples to speak of.
      render: (r, text) => <span>{text}{r.condition.type !== 'prompt_version_change' && <span class="muted"> over {formatDuration(r.window_ms)}, ≥ {r.min_samples} samples</span>}</span>,
    },
    {
      key: 'state', label: 'State', card: 'lead', value: (r) => (r.enabled ? r.state.status : 'disabled'),
      render: (r) => (
        <span class="rule-state">
          {!r.enabled ? <Badge>disabled</Badge> : r.state.status === 'firing' ? <Badge tone="danger">firing</Badge> : <Badge tone="success">ok</Badge>}
          {r.state.flapping && <Badge tone="warning">flapping</Badge>}
          {r.state.last_error && <span class="delivery-error">{r.state.last_error}</span>}
          {r.state.evaluated_at && <span class="muted small">checked {formatAgo(Date.parse(r.state.evaluated_at))}</span>}
        </span>
      ),
    },
    { key: 'severity', label: 'Severity', value: (r) => r.severity },
    {
      key: 'actions', label: 'Actions', sortable: false, value: () => null,
      render: (r) => (r.origin === 'config' ? <span class="muted">read-only</span> : r.origin === 'plugin' ? <Link href="/host/alerts" class="muted">on Host alerts</Link> : (
        <span class="row-actions">
          <button type="button" class="button button-secondary button-small" onClick={() => onEdit(r)}>Edit</button>
          <ConfirmAction small label="Delete…" confirm={`Delete “${r.name}”`} question="The rule stops; its events stay in the history."
            run={async () => { await deleteJson(`/api/alerts/rules/${encodeURIComponent(r.id)}`, { what: 'the rule' }); announce(`The rule ${r.name} is deleted.`); onChanged(); }} />
        </span>
      )),
    },
  ];
  return (
    <Card title="Rules" description="Each is evaluated every interval against its source's stored data" padded={rules.length === 0}
      actions={<button type="button" class="button button-primary" onClick={onNew}>New rule</button>}>
      {rules.length === 0 ? (
        <EmptyState compact icon="alert" title="No rule yet"
          actions={<button type="button" class="button button-primary" onClick={onNew}>Create a rule</button>}>
          <p>A rule watches a source (error rate, latency, eval scores, spend) and notifies your channels when its condition holds. Create one here, or declare it in the config file:</p>
          <CodeBlock label="An example rule for the config file" language="yaml" code={EXAMPLE_RULE} />
        </EmptyState>
      ) : (
        <>
          {fromConfig > 0 && <p class="notice rules-notice">{fromConfig === 1 ? 'One rule is' : `${fromConfig} rules are`} declared in the config file: change {fromConfig === 1 ? 'it' : 'them'} there; here {fromConfig === 1 ? 'it is' : 'they are'} read-only.</p>}
          <Table caption="Alert rules" columns={columns} rows={rules} rowKey={(r) => r.id} />
        </>
      )}
    </Card>
  );
}
