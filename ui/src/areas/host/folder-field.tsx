import { useId } from 'preact/hooks';

/** A path input with its label: the folder a scan starts in. */
export function FolderField({ label, value, onChange, placeholder }: { label: string; value: string; onChange(v: string): void; placeholder?: string }) {
  const id = useId();
  return (
    <div class="field field-grow">
      <label class="field-label" for={id}>{label}</label>
      <input id={id} class="input input-mono" value={value} maxLength={4096} spellcheck={false} autocomplete="off" placeholder={placeholder}
        onInput={(e) => onChange(e.currentTarget.value)} />
    </div>
  );
}

/** A number input with its label and unit. */
export function NumberField({ label, value, onChange, min, unit }: { label: string; value: number; onChange(v: number): void; min: number; unit: string }) {
  const id = useId();
  return (
    <div class="field field-number">
      <label class="field-label" for={id}>{label} <span class="field-hint">({unit})</span></label>
      <input id={id} class="input numeric" type="number" min={min} value={value} inputMode="numeric"
        onInput={(e) => onChange(Math.max(min, Number(e.currentTarget.value) || min))} />
    </div>
  );
}
