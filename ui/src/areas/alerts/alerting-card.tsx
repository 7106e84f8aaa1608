// The alerting state and its controls: start or stop, snooze for a while, and the bulk actions, each confirmed.
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import type { ApiError } from '../../data/api-error.js';
import { formatDateTime } from '../../format/time.js';
import { announce } from '../../shell/announcer.js';
import { alertctl, alerting, snoozeLabel } from './alerting-status.js';
import { BrowserNoticesControl } from './browser-notices.js';
import { SNOOZE_MINUTES, type AlertctlAction } from './alerts-api.js';
import { ConfirmAction } from './confirm-action.js';

function stateLine(): { badge: string; tone: 'success' | 'warning'; text: string } {
  const s = alerting.value!;
  if (s.state === 'stopped') return { badge: 'Stopped', tone: 'warning', text: 'No rule fires and no history is written until you start alerting again. Sampling, charts and channel tests go on.' };
  if (s.state === 'snoozed') return { badge: 'Snoozed', tone: 'warning', text: `No rule fires until ${formatDateTime(Date.parse(s.until!))}; then alerting is on again by itself.` };
  const { total, enabled } = s.rules;
  if (total === 0) return { badge: 'On', tone: 'success', text: 'Alerting is on, with no rule to evaluate yet: create one under Rules below, or declare rules in the config file (alerts.rules).' };
  if (enabled === 0) return { badge: 'On', tone: 'success', text: `Alerting is on, but every rule is disabled (${total}): enable one under Rules, or every one under Bulk actions.` };
  const which = enabled === total ? (total === 1 ? 'The rule is' : `All ${total} rules are`) : `${enabled} of ${total} rules are`;
  return { badge: 'On', tone: 'success', text: `${which} enabled and evaluated every interval.` };
}

export function AlertingCard({ onBulk }: { onBulk(): void }) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const s = alerting.value;
  if (!s) return null;
  const act = async (action: AlertctlAction, done: string, minutes?: number) => {
    setBusy(true);
    setError(undefined);
    try {
      await alertctl(action, minutes);
      announce(done);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const bulk = (action: AlertctlAction, done: string) => async () => {
    await alertctl(action);
    announce(done);
    onBulk();
  };
  const line = stateLine();
  return (
    <Card title="Alerting" class="alerting-card" actions={<Badge tone={line.tone}>{line.badge}</Badge>}>
      <p class="alerting-text" data-alerting-state={s.state}>{line.text}</p>
      <div class="alerting-controls">
        {s.state === 'on'
          ? <button type="button" class="button button-secondary" disabled={busy} onClick={() => act('stop', 'Alerting is stopped.')}>Stop alerting</button>
          : <button type="button" class="button button-primary" disabled={busy} onClick={() => act('start', 'Alerting is on.')}>Start alerting</button>}
        <div class="snooze" role="group" aria-labelledby="snooze-label">
          <span class="field-label" id="snooze-label">Snooze for</span>
          {SNOOZE_MINUTES.map((m) => (
            <button key={m} type="button" class="button button-secondary button-small" disabled={busy}
              onClick={() => act('snooze', `Alerting is snoozed for ${snoozeLabel(m)}.`, m)}>{snoozeLabel(m)}</button>
          ))}
        </div>
      </div>
      {error && <ErrorState error={error} compact />}
      <BrowserNoticesControl />
      <details class="alerting-bulk">
        <summary>Bulk actions</summary>
        <div class="alerting-bulk-actions">
          <ConfirmAction label="Enable every rule…" confirm="Enable every rule" run={bulk('enable_all', 'Every rule is enabled.')}
            question="Every rule is enabled, the config file's too (until the file is loaded again: it sets its own)." />
          <ConfirmAction label="Disable every rule…" confirm="Disable every rule" run={bulk('disable_all', 'Every rule is disabled.')}
            question="Every rule stops being evaluated until it is enabled again, the config file's too (until the file is loaded again)." />
          <ConfirmAction label="Clear the history…" confirm="Clear the history" run={bulk('clear_history', 'The alert history is cleared.')}
            question="Every alert event and its delivery state is deleted, and every rule starts again from ok. This cannot be undone." />
        </div>
      </details>
    </Card>
  );
}
