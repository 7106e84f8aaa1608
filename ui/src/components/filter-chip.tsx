import { Icon } from './icon.js';

/** An active filter the toolbar has no control for, with a button that removes it. */
export function FilterChip({ name, value, onRemove }: { name: string; value: string; onRemove(): void }) {
  return (
    <span class="filter-chip">
      {name} <code>{value}</code>
      <button type="button" class="button button-ghost button-icon button-small" aria-label={`Remove the filter ${name} ${value}`} onClick={onRemove}>
        <Icon name="close" />
      </button>
    </span>
  );
}
