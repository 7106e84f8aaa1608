// The frame of every page: the sidebar (a drawer below 900 px), the main region, the toasts and the overlays.
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { Icon } from '../components/icon.js';
import { AlertingBadge } from './alerting-badge.js';
import { AssistantPanel } from './assistant/assistant-panel.js';
import { toggleAssistant } from './assistant/assistant-state.js';
import { CommandPalette } from './command-palette.js';
import { installKeyboard } from './keyboard.js';
import { openPalette } from './overlays.js';
import { PageHost } from './page-host.js';
import { here, Link } from './router.js';
import { ShortcutSheet } from './shortcut-sheet.js';
import { shellInfo } from './shell-info.js';
import { Sidebar } from './sidebar.js';
import { Toast } from './toast.js';

export function Layout() {
  const [navOpen, setNavOpen] = useState(false);
  useEffect(() => installKeyboard(), []);
  useEffect(() => setNavOpen(false), [here.value.path]);
  // A layout effect: the Escape listener is in place when the drawer is painted, not a frame later, so an Escape
  // pressed at once still closes it.
  useLayoutEffect(() => {
    if (!navOpen) return;
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') setNavOpen(false); };
    window.addEventListener('keydown', onKey);
    document.querySelector<HTMLElement>('#sidebar a, #sidebar button')?.focus();
    return () => window.removeEventListener('keydown', onKey);
  }, [navOpen]);
  return (
    <div class="app" data-nav-open={navOpen ? 'true' : undefined}>
      <a class="skip-link" href="#main" onClick={(e) => {
        // Focus moves to the content without a fragment in the address, which is the router's.
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>Skip to content</a>
      <header class="topbar" inert={navOpen || undefined}>
        <button type="button" class="button button-ghost button-icon" aria-label="Open the menu" aria-expanded={navOpen} aria-controls="sidebar"
          onClick={() => setNavOpen(true)}>
          <Icon name="menu" />
        </button>
        <Link href="/" class="topbar-brand">Vigil</Link>
        <AlertingBadge link />
        <button type="button" class="button button-ghost button-icon" aria-label="Search" onClick={openPalette}>
          <Icon name="search" />
        </button>
        {shellInfo.value?.plugins.includes('assistant') && (
          <button type="button" class="button button-ghost button-icon" aria-label="Assistant" onClick={toggleAssistant}>
            <Icon name="llm" />
          </button>
        )}
      </header>
      <aside id="sidebar" class="sidebar" aria-label="Sidebar">
        {navOpen && (
          <button type="button" class="button button-ghost button-icon sidebar-close" aria-label="Close the menu" onClick={() => setNavOpen(false)}>
            <Icon name="close" />
          </button>
        )}
        <Sidebar onNavigate={() => setNavOpen(false)} />
      </aside>
      {navOpen && <div class="scrim" onClick={() => setNavOpen(false)} />}
      <main id="main" class="main" tabIndex={-1} inert={navOpen || undefined}>
        <div class="page">
          <PageHost />
        </div>
      </main>
      <AssistantPanel />
      <Toast />
      <CommandPalette />
      <ShortcutSheet />
    </div>
  );
}
