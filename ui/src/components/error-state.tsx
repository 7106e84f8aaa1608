import type { ApiError } from '../data/api-error.js';
import { Icon } from './icon.js';

/** A failed load: what happened, what to do, and a way to try again. */
export function ErrorState({ error, onRetry, compact }: { error: ApiError | Error; onRetry?: () => void; compact?: boolean }) {
  const next = (error as ApiError).next;
  return (
    <div class={`error-state${compact ? ' error-state-compact' : ''}`} role="alert">
      <Icon name="alert" class="error-state-icon" />
      <div class="error-state-text">
        <p class="error-state-title">{error.message}</p>
        {next && <p class="error-state-next">{next}</p>}
      </div>
      {onRetry && (
        <button type="button" class="button button-secondary" onClick={onRetry}>
          <Icon name="refresh" /> Try again
        </button>
      )}
    </div>
  );
}
