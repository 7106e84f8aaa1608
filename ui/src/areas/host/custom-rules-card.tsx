// The custom host rules (a unit stopped, a port not listening, a process gone, a folder too large, a backup too old):
// the list with each rule's state, on/off and removal, and the form that adds one. The server takes the whole list
// (POST /api/customrules); a rule that watches what it watched before keeps its state and cooldown.
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { announce } from '../../shell/announcer.js';
import { ConfirmAction } from '../alerts/confirm-action.js';
import type { CustomRuleInput, CustomRuleView } from './host-api.js';
import { CustomRuleForm } from './custom-rule-form.js';
import { describeRule, KIND_TEXT, toInput } from './custom-rule-text.js';

/** perch's cap, which the server enforces. */
const MAX_RULES = 24;

const inputOf = (r: CustomRuleView): CustomRuleInput => toInput({ name: r.name, kind: r.kind, target: r.target, value: r.value, enabled: r.enabled, user: r.user, cooldown_ms: r.cooldown_ms });

export function CustomRulesCard({ rules, onSaved }: { rules: readonly CustomRuleView[]; onSaved(rules: CustomRuleView[]): void }) {
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<ApiError>();
  const save = async (list: CustomRuleInput[], done: string) => {
    setError(undefined);
    try {
      const answer = await postJson<{ rules: CustomRuleView[] }>('/api/customrules', { rules: list }, { what: 'the custom rules' });
      onSaved(answer.rules);
      announce(done);
    } catch (err) {
      setError(err as ApiError);
      throw err;
    }
  };
  const toggle = (i: number) => save(rules.map((r, j) => (j === i ? { ...inputOf(r), enabled: !r.enabled } : inputOf(r))), `${rules[i].name} is ${rules[i].enabled ? 'off' : 'on'}.`).catch(() => {});
  return (
    <Card title="Custom rules" description="A service, a port, a process, a folder's size or a backup's age; checked once a minute"
      actions={!adding && <button type="button" class="button button-secondary button-small" disabled={rules.length >= MAX_RULES} onClick={() => setAdding(true)}>Add a rule</button>}>
      {adding && (
        <CustomRuleForm onCancel={() => setAdding(false)} onSave={async (rule) => {
          await save([...rules.map(inputOf), rule], `${rule.name} is saved.`);
          setAdding(false);
        }} />
      )}
      {rules.length === 0 && !adding && (
        <EmptyState compact icon="alert" title="No custom rule yet">
          <p>Watch what matters on this machine: a service that must run (<code class="inline-code">postgresql.service</code>), a port that must listen, a backup that must be fresh. Add a rule and Test it before saving.</p>
        </EmptyState>
      )}
      {rules.length > 0 && (
        <ul class="custom-rules">
          {rules.map((r, i) => (
            <li key={r.id} class="custom-rule">
              <div class="custom-rule-text">
                <span class="custom-rule-name">{r.name} <span class="muted">· {KIND_TEXT[r.kind].label}</span></span>
                <span class="custom-rule-sentence">{describeRule(r)}</span>
                {r.last_error && <span class="field-error">{r.last_error}</span>}
              </div>
              <div class="custom-rule-actions">
                {!r.enabled ? <Badge>Off</Badge> : r.status === 'firing' ? <Badge tone="danger">Firing</Badge>
                  : r.last_value === null && !r.last_error ? <Badge title="Rules are checked once a minute">Not checked yet</Badge> : <Badge tone="success">OK</Badge>}
                <button type="button" role="switch" class="switch" aria-checked={r.enabled} aria-label={`${r.name}: on`} onClick={() => toggle(i)}><span class="switch-thumb" /></button>
                <ConfirmAction small label="Remove…" question={<>Remove <strong>{r.name}</strong>? Its history stays on the Alerts page.</>} confirm="Remove"
                  run={() => save(rules.filter((_, j) => j !== i).map(inputOf), `${r.name} is removed.`)} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {error && <ErrorState error={error} compact />}
    </Card>
  );
}
