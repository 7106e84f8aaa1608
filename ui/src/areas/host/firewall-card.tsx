// The firewall as read without privileges, and its live rules on request (through the privileged path).
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { useResource } from '../../data/use-resource.js';
import { ElevationPrompt } from './elevation-prompt.js';
import type { Firewall, RuleDump } from './network-api.js';

const VERDICT: Record<Firewall['verdict'], { label: string; tone: 'success' | 'warning' | 'danger' }> = {
  on: { label: 'On', tone: 'success' },
  off: { label: 'Not enabled', tone: 'warning' },
  none: { label: 'No firewall', tone: 'danger' },
};

/** A sentence of the server with `commands` in backticks, the commands shown as code. */
function WithCode({ text }: { text: string }) {
  return <>{text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}</>;
}

export function FirewallCard() {
  const fw = useResource<Firewall>('/api/firewall', 'the firewall state');
  const [rules, setRules] = useState<RuleDump>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const show = async () => {
    setBusy(true);
    setError(undefined);
    try { setRules(await postJson<RuleDump>('/api/firewallrules', {}, { what: 'the firewall rules' })); } catch (err) { setError(err as ApiError); } finally { setBusy(false); }
  };
  const data = fw.data;
  const canDump = data !== undefined && data.tool !== null && data.elevation.via !== null && !data.elevation.password_needed;
  return (
    <Card title="Firewall" description="Read without privileges: which tool is installed, its own enabled switch, and its service."
      actions={data && <Badge tone={VERDICT[data.verdict].tone}>{VERDICT[data.verdict].label}</Badge>}>
      {fw.error && <ErrorState error={fw.error} onRetry={fw.reload} compact />}
      {fw.loading && !data && <Loading label="Reading the firewall" lines={2} />}
      {data && (
        <div class="stack firewall">
          <p class="firewall-message"><WithCode text={data.message} /></p>
          <ul class="firewall-tools">
            {data.tools.filter((t) => t.installed).map((t) => (
              <li key={t.tool}><strong>{t.tool}</strong> <span class="muted">{t.path}</span> · {t.summary}</li>
            ))}
          </ul>
          <ElevationPrompt elevation={data.elevation} onChange={fw.reload} />
          <div class="form-actions">
            <button type="button" class="button button-secondary" disabled={!canDump || busy} onClick={show}>{busy ? 'Reading…' : rules ? 'Read the rules again' : 'Show rules'}</button>
            {!canDump && <span class="muted">{data.tool === null ? 'No firewall tool is installed.' : data.elevation.note}</span>}
          </div>
          {error && <ErrorState error={error} compact />}
          {rules && (
            <figure class="firewall-rules">
              <figcaption class="muted"><code>{rules.command}</code>{rules.exit_code !== 0 && ` exited with ${rules.exit_code}`}{rules.truncated && ' (cut at 1 MiB)'}</figcaption>
              <pre tabIndex={0} aria-label={`Output of ${rules.command}`}>{rules.output || '(no output)'}</pre>
            </figure>
          )}
        </div>
      )}
    </Card>
  );
}
