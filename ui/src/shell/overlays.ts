// The shell's two overlays, opened from anywhere (keys, buttons, palette commands).
import { signal } from '@preact/signals';

export const paletteOpen = signal(false);
export const shortcutsOpen = signal(false);

export function openPalette(): void {
  shortcutsOpen.value = false;
  paletteOpen.value = true;
}

export function openShortcuts(): void {
  paletteOpen.value = false;
  shortcutsOpen.value = true;
}
