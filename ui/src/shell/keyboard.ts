// The global key handler: Mod+K and `/` open the palette, Mod+I toggles the assistant, `?` the shortcut sheet, `g <key>` goes to a page.
import { areas, systemPages } from '../areas/index.js';
import { settings } from './display-settings.js';
import { isTyping, KeySequence } from './key-sequence.js';
import { toggleAssistant } from './assistant/assistant-state.js';
import { openPalette, openShortcuts, paletteOpen } from './overlays.js';
import { navigate } from './router.js';
import { shortcutGroups } from './shortcuts.js';
import { isConfigured, shellInfo } from './shell-info.js';

/** Installs the handler on `window`; returns the function that removes it. */
export function installKeyboard(): () => void {
  let sequence: KeySequence | undefined;
  let builtFor = '';
  const sequences = (): KeySequence => {
    // Rebuilt when what is listed changes (Simple mode, areas configured).
    const key = `${settings.value.simple_mode}|${JSON.stringify(shellInfo.value?.areas ?? [])}`;
    if (!sequence || builtFor !== key) {
      const { navigation } = shortcutGroups(areas, systemPages, isConfigured, settings.value.simple_mode);
      sequence = new KeySequence(new Map(navigation.map((s) => [s.keys, () => navigate(s.path)])));
      builtFor = key;
    }
    return sequence;
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
      e.preventDefault();
      if (paletteOpen.value) paletteOpen.value = false;
      else openPalette();
      return;
    }
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'i') {
      // Typing or not: the panel is one key away from any field, like the palette.
      e.preventDefault();
      paletteOpen.value = false;
      toggleAssistant();
      return;
    }
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
    // The dialogs' own state: a key pressed right behind the Escape that closed one must work.
    if (document.querySelector('dialog[open]')) return;
    if (e.key === '?') {
      e.preventDefault();
      openShortcuts();
    } else if (e.key === '/') {
      e.preventDefault();
      openPalette();
    } else if (sequences().press(e.key, Date.now())) {
      e.preventDefault();
    }
  };
  window.addEventListener('keydown', onKeyDown);
  return () => window.removeEventListener('keydown', onKeyDown);
}
