// Two-key shortcuts (`g o`: go to the overview), as pages declare them: the first key arms, the second within a
// second completes; any other key disarms.

/** How long after the first key the second still counts, in ms. */
export const SEQUENCE_MS = 1000;

export class KeySequence {
  private armed: { key: string; at: number } | undefined;

  /** `shortcuts` maps sequences (`g o`) to what they do. */
  constructor(private readonly shortcuts: ReadonlyMap<string, () => void>) {}

  /** Feeds one key press (KeyboardEvent.key) at `now` ms; returns whether it completed or armed a sequence. */
  press(key: string, now: number): boolean {
    const k = key.length === 1 ? key.toLowerCase() : key;
    if (this.armed && now - this.armed.at <= SEQUENCE_MS) {
      const action = this.shortcuts.get(`${this.armed.key} ${k}`);
      this.armed = undefined;
      if (action) {
        action();
        return true;
      }
    }
    this.armed = undefined;
    for (const sequence of this.shortcuts.keys()) {
      if (sequence.startsWith(`${k} `)) {
        this.armed = { key: k, at: now };
        return true;
      }
    }
    return false;
  }
}

/** Whether a key event is typing into a field (shortcuts then stay out of the way). */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable) return true;
  if (tag !== 'INPUT') return false;
  const type = (el as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(type);
}

/** Whether the platform's shortcut modifier is ⌘ (Apple) rather than Ctrl. */
export function usesCommandKey(nav: { platform?: string; userAgent?: string } = typeof navigator === 'undefined' ? {} : navigator): boolean {
  return /Mac|iPhone|iPad|iPod/i.test(nav.platform || nav.userAgent || '');
}
