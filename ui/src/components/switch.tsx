import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

export interface SwitchProps {
  label: string;
  description?: ComponentChildren;
  checked: boolean;
  disabled?: boolean;
  onChange(checked: boolean): void;
}

/** An on/off setting: a labelled switch with what it does under the label. */
export function Switch({ label, description, checked, disabled, onChange }: SwitchProps) {
  const id = useId();
  return (
    <div class="setting-row">
      <div class="setting-text">
        <span class="setting-label" id={`${id}-label`}>{label}</span>
        {description && <p class="setting-description" id={`${id}-description`}>{description}</p>}
      </div>
      <button type="button" role="switch" class="switch" aria-checked={checked} disabled={disabled}
        aria-labelledby={`${id}-label`} aria-describedby={description ? `${id}-description` : undefined}
        onClick={() => onChange(!checked)}>
        <span class="switch-thumb" />
      </button>
    </div>
  );
}
