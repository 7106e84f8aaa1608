// Rows of name and value (headers, query parameters) with a switch to leave one out without deleting it.
import { useId } from 'preact/hooks';
import type { ApiKeyValue } from './client-api.js';

export function PairsEditor({ label, pairs, onChange, namePlaceholder }: { label: string; pairs: ApiKeyValue[]; onChange(p: ApiKeyValue[]): void; namePlaceholder: string }) {
  const id = useId();
  const set = (i: number, change: Partial<ApiKeyValue>) => onChange(pairs.map((p, j) => (j === i ? { ...p, ...change } : p)));
  return (
    <div class="ac-pairs" role="group" aria-label={label}>
      {pairs.length === 0 && <p class="muted ac-pairs-empty">No {label.toLowerCase()} yet.</p>}
      {pairs.map((p, i) => (
        <div class="ac-pair" key={i}>
          <input type="checkbox" class="ac-pair-on" checked={p.enabled !== false} aria-label={`Send ${p.name || `row ${i + 1}`}`}
            onChange={(e) => set(i, { enabled: e.currentTarget.checked ? undefined : false })} />
          <input class="input input-mono" id={`${id}-n${i}`} aria-label={`${label} ${i + 1} name`} placeholder={namePlaceholder} value={p.name}
            onInput={(e) => set(i, { name: e.currentTarget.value })} />
          <input class="input input-mono" aria-label={`${label} ${i + 1} value`} placeholder="value or {{variable}}" value={p.value}
            onInput={(e) => set(i, { value: e.currentTarget.value })} />
          <button type="button" class="button button-ghost button-small" aria-label={`Remove ${p.name || `row ${i + 1}`}`} onClick={() => onChange(pairs.filter((_, j) => j !== i))}>Remove</button>
        </div>
      ))}
      <button type="button" class="button button-small" onClick={() => onChange([...pairs, { name: '', value: '' }])}>Add {label.toLowerCase().replace(/s$/, '')}</button>
    </div>
  );
}
