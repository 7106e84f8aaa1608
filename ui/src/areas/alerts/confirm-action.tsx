import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorState } from '../../components/error-state.js';
import type { ApiError } from '../../data/api-error.js';

export interface ConfirmActionProps {
  /** The button that asks, e.g. `Delete…`. */
  label: string;
  /** What will happen, asked before it does. */
  question: ComponentChildren;
  /** The confirming button, e.g. `Delete the channel`. */
  confirm: string;
  run(): Promise<unknown>;
  small?: boolean;
}

/** An action that cannot be undone: the button asks first, in place, and shows what failed. */
export function ConfirmAction({ label, question, confirm, run, small }: ConfirmActionProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const size = small ? ' button-small' : '';
  const go = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await run();
      setAsking(false);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  if (!asking) return <button type="button" class={`button button-secondary${size}`} onClick={() => setAsking(true)}>{label}</button>;
  return (
    <div class="confirm" role="group" aria-label={confirm}>
      <p>{question}</p>
      <div class="form-actions">
        <button type="button" class={`button button-primary${size}`} disabled={busy} onClick={go}>{busy ? 'Working…' : confirm}</button>
        <button type="button" class={`button button-ghost${size}`} onClick={() => setAsking(false)}>Cancel</button>
      </div>
      {error && <ErrorState error={error} compact />}
    </div>
  );
}
