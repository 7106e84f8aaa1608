import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../../components/icon.js';

/** How long typing pauses before the search runs, ms. */
const TYPING_MS = 250;

export interface SearchFieldProps {
  /** Names the field for assistive technology. */
  label: string;
  placeholder: string;
  /** The search in force (the address's). */
  value: string;
  /** Called with the trimmed text once typing pauses, or on Enter. */
  onApply(value: string): void;
  maxLength?: number;
}

/** A search box that applies what is typed after a pause, so each key press is not a request. */
export function SearchField({ label, placeholder, value, onApply, maxLength = 200 }: SearchFieldProps) {
  const [draft, setDraft] = useState(value);
  const latest = useRef({ value, onApply });
  latest.current = { value, onApply };
  useEffect(() => setDraft(value), [value]);
  const apply = (text: string) => { if (text.trim() !== latest.current.value) latest.current.onApply(text.trim()); };
  useEffect(() => {
    if (draft.trim() === value) return undefined;
    const timer = setTimeout(() => apply(draft), TYPING_MS);
    return () => clearTimeout(timer);
  }, [draft, value]);
  return (
    <label class="filter-field host-search">
      <Icon name="search" />
      <span class="sr-only">{label}</span>
      <input type="search" value={draft} placeholder={placeholder} maxLength={maxLength} autocomplete="off" spellcheck={false}
        onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={(e) => { if (e.key === 'Enter') apply(draft); }} />
    </label>
  );
}
