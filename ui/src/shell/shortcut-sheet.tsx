// The keyboard shortcut sheet, opened with `?`.
import { useEffect, useRef } from 'preact/hooks';
import { areas, systemPages } from '../areas/index.js';
import { Icon } from '../components/icon.js';
import { settings } from './display-settings.js';
import { usesCommandKey } from './key-sequence.js';
import { keepFocus } from './modal-focus.js';
import { shortcutsOpen } from './overlays.js';
import { shortcutGroups, type Shortcut } from './shortcuts.js';
import { isConfigured } from './shell-info.js';

function Keys({ keys }: { keys: string }) {
  const mod = usesCommandKey() ? '⌘' : 'Ctrl';
  const parts = keys.split(' ').map((k) => (k === 'Mod' ? mod : k));
  const sequence = keys.startsWith('g ');
  return (
    <span class="keys">
      {parts.map((k, i) => (
        <>
          {i > 0 && <span class="keys-joiner">{sequence ? 'then' : '+'}</span>}
          <kbd>{k}</kbd>
        </>
      ))}
    </span>
  );
}

function Group({ title, shortcuts }: { title: string; shortcuts: Shortcut[] }) {
  return (
    <section class="sheet-group" aria-label={title}>
      <h3 class="sheet-group-title">{title}</h3>
      <dl class="sheet-list">
        {shortcuts.map((s) => (
          <div class="sheet-row" key={s.keys}>
            <dt><Keys keys={s.keys} /></dt>
            <dd>{s.description}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function ShortcutSheet() {
  const dialog = useRef<HTMLDialogElement>(null);
  const open = shortcutsOpen.value;
  const restoreFocus = useRef<(() => void) | undefined>(undefined);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      restoreFocus.current = keepFocus(d);
      d.showModal();
    } else if (!open) {
      if (d.open) d.close();
      restoreFocus.current?.();
      restoreFocus.current = undefined;
    }
  }, [open]);
  const groups = shortcutGroups(areas, systemPages, isConfigured, settings.value.simple_mode);
  return (
    <dialog ref={dialog} class="sheet" aria-labelledby="sheet-title" onClose={() => { shortcutsOpen.value = false; }}
      onCancel={() => { shortcutsOpen.value = false; }}
      onClick={(e) => { if (e.target === dialog.current) shortcutsOpen.value = false; }}>
      <header class="sheet-header">
        <h2 id="sheet-title">Keyboard shortcuts</h2>
        <button type="button" class="button button-ghost button-icon" aria-label="Close" onClick={() => { shortcutsOpen.value = false; }}>
          <Icon name="close" />
        </button>
      </header>
      <div class="sheet-body">
        <Group title="General" shortcuts={groups.general} />
        <Group title="Go to" shortcuts={groups.navigation} />
      </div>
      <p class="sheet-note">Shortcuts are off while you type in a field, except {usesCommandKey() ? '⌘' : 'Ctrl'}+K.</p>
    </dialog>
  );
}
