// Short messages for everyone: shown as a toast and read by screen readers (an aria-live region in the layout).
import { signal } from '@preact/signals';

export const announcement = signal<{ text: string; id: number } | null>(null);
let next = 0;

/** Shows `text` for a few seconds and has assistive technology read it. */
export function announce(text: string): void {
  announcement.value = { text, id: ++next };
}
