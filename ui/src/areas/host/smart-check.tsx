// A SMART overall-health check of one drive, on request: it runs smartctl through the privileged helper.
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { SmartAnswer } from '../../data/api.gen.js';

export function SmartCheck({ device }: { device: string }) {
  const [answer, setAnswer] = useState<SmartAnswer>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const check = async () => {
    setBusy(true);
    setError(undefined);
    try { setAnswer(await postJson<SmartAnswer>('/api/smart', { device }, { what: `the SMART check of ${device}` })); } catch (err) { setError(err as ApiError); } finally { setBusy(false); }
  };
  if (answer) return <span title={answer.summary}><Badge tone={answer.passed === true ? 'success' : answer.passed === false ? 'danger' : 'neutral'}>{answer.passed === true ? 'Passed' : answer.passed === false ? 'Failing' : 'Unknown'}</Badge> <span class="muted">{answer.summary}</span></span>;
  return (
    <span>
      <button type="button" class="button button-secondary button-small" disabled={busy} onClick={() => void check()}>{busy ? 'Checking…' : 'Check'}</button>
      {error && <span class="field-error"> {error.message}</span>}
    </span>
  );
}
