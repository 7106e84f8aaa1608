import { useRef } from 'preact/hooks';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  /** A longer name for assistive technology, e.g. "Last hour" for `1h`. */
  description?: string;
}

export interface SegmentedProps<T extends string> {
  /** Names the group for assistive technology. */
  label: string;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange(value: T): void;
}

/**
 * One choice among a few, as a radio group: Tab enters it at the chosen option, the arrow keys move and choose,
 * Home and End jump to the ends.
 */
export function Segmented<T extends string>({ label, options, value, onChange }: SegmentedProps<T>) {
  const group = useRef<HTMLDivElement>(null);
  // A value none of the options holds (a filter set elsewhere) checks none; Tab still enters at the first.
  const none = !options.some((o) => o.value === value);
  const choose = (index: number) => {
    const option = options[(index + options.length) % options.length];
    onChange(option.value);
    group.current?.querySelectorAll<HTMLButtonElement>('[role="radio"]')[options.indexOf(option)]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const at = options.findIndex((o) => o.value === value);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: options.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      choose(moves[event.key]);
    }
  };
  return (
    <div class="segmented" role="radiogroup" aria-label={label} ref={group} onKeyDown={onKeyDown}>
      {options.map((o, i) => (
        <button key={o.value} type="button" role="radio" aria-checked={o.value === value} tabIndex={o.value === value || (none && i === 0) ? 0 : -1}
          aria-label={o.description} class="segmented-option" onClick={() => onChange(o.value)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}
