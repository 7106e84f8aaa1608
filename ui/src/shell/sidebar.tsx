// The sidebar: the areas with their pages (an area that is not set up is one link to what it is), then Settings,
// About, the theme toggle and the version.
import { areas, systemPages } from '../areas/index.js';
import type { Area, AreaPage } from '../areas/types.js';
import { openFolds, setFoldOpen } from './nav-folds.js';
import { groupPages } from './page-groups.js';
import { gridIsHome } from '../home/grid-is-home.js';
import { Icon } from '../components/icon.js';
import { AlertingBadge, AlertingPoller } from './alerting-badge.js';
import { effectiveTheme, settings, toggleTheme } from './display-settings.js';
import { usesCommandKey } from './key-sequence.js';
import { openPalette } from './overlays.js';
import { toggleAssistant } from './assistant/assistant-state.js';
import { here, Link } from './router.js';
import { isListed, resolveRoute } from './routes.js';
import { isConfigured, shellInfo } from './shell-info.js';
import { normalizePath } from './url-state.js';

/**
 * The sidebar link of the page on screen: its own, or for a detail page (`/gateway/requests/:id`) the listed page
 * whose path is the longest prefix of it (Requests, not Overview).
 */
function activeLink(): string {
  const resolved = resolveRoute(here.value.path, areas, systemPages, isConfigured);
  if (resolved.kind !== 'page') return normalizePath(here.value.path);
  if (resolved.page.nav !== false) return resolved.page.path;
  const listed = [...(resolved.area?.pages ?? []), ...systemPages].filter((p) => p.nav !== false && resolved.page.path.startsWith(`${p.path}/`));
  return listed.sort((a, b) => b.path.length - a.path.length)[0]?.path ?? resolved.page.path;
}

const currentFor = (path: string, active: string): 'page' | undefined => (path === active ? 'page' : undefined);

function AreaNav({ area }: { area: Area }) {
  if (!isConfigured(area)) {
    return (
      <li class="nav-area">
        <Link href={`/${area.id}`} class="nav-link nav-link-off" aria-current={normalizePath(here.value.path).startsWith(`/${area.id}`) ? 'page' : undefined}>
          <Icon name={area.icon} />
          <span class="nav-text">{area.title}</span>
          <span class="nav-tag">{area.status === 'planned' ? 'Soon' : 'Off'}</span>
        </Link>
      </li>
    );
  }
  const pages = area.pages.filter((p) => isListed(p, settings.value.simple_mode));
  const active = activeLink();
  const { ungrouped, groups } = groupPages(pages);
  return (
    <li class="nav-area">
      <div class="nav-area-title" id={`nav-${area.id}`}>
        <Icon name={area.icon} />
        <span>{area.title}</span>
      </div>
      <ul class="nav-pages" aria-labelledby={`nav-${area.id}`}>
        {ungrouped.map((page) => <PageLink key={page.path} page={page} active={active} />)}
        {groups.map(([name, inGroup]) => <PageGroup key={name} area={area.id} name={name} pages={inGroup} active={active} />)}
      </ul>
    </li>
  );
}

function PageLink({ page, active }: { page: AreaPage; active: string }) {
  return (
    <li>
      <Link href={page.path} class="nav-link" aria-current={currentFor(page.path, active)}>
        {page.icon && <Icon name={page.icon} />}
        <span class="nav-text">{page.title}</span>
      </Link>
    </li>
  );
}

/**
 * A fold of pages. It opens by itself when the page on screen is in it (a shortcut or a link landed there), and
 * otherwise keeps what the user chose in this browser.
 */
function PageGroup({ area, name, pages, active }: { area: string; name: string; pages: AreaPage[]; active: string }) {
  const key = `${area}/${name}`;
  const open = pages.some((p) => p.path === active) || openFolds.value.has(key);
  return (
    <li class="nav-group">
      <details open={open} onToggle={(e) => setFoldOpen(key, (e.currentTarget as HTMLDetailsElement).open)}>
        <summary class="nav-group-title">
          <span class="nav-text">{name}</span>
          <span class="nav-group-count" aria-label={`${pages.length} pages`}>{pages.length}</span>
        </summary>
        <ul class="nav-pages">
          {pages.map((page) => <PageLink key={page.path} page={page} active={active} />)}
        </ul>
      </details>
    </li>
  );
}

export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const dark = effectiveTheme.value === 'dark';
  const mod = usesCommandKey() ? '⌘' : 'Ctrl';
  const active = activeLink();
  return (
    <div class="sidebar-inner" onClick={(e) => { if ((e.target as HTMLElement).closest('a')) onNavigate?.(); }}>
      <div class="brand">
        <Link href="/" class="brand-link" aria-label="Vigil home">
          <svg class="brand-mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M12 2.5 4 5.6v6c0 5 3.4 8.7 8 10 4.6-1.3 8-5 8-10v-6l-8-3.1Z" />
            <circle cx="12" cy="11.5" r="3.2" />
          </svg>
          <span class="brand-name">Vigil</span>
        </Link>
      </div>
      <button type="button" class="search-button" onClick={openPalette} aria-keyshortcuts={usesCommandKey() ? 'Meta+K' : 'Control+K'}>
        <Icon name="search" />
        <span class="search-button-text">Search…</span>
        <kbd>{mod} K</kbd>
      </button>
      {shellInfo.value?.plugins.includes('assistant') && (
        <button type="button" class="search-button" onClick={toggleAssistant} aria-keyshortcuts={usesCommandKey() ? 'Meta+I' : 'Control+I'} aria-controls="assistant">
          <Icon name="llm" />
          <span class="search-button-text">Assistant</span>
          <kbd>{mod} I</kbd>
        </button>
      )}
      <nav class="nav" aria-label="Main">
        {gridIsHome(areas, isConfigured) && (
          <Link href="/" class="nav-link nav-home" aria-current={currentFor('/', active)}>
            <Icon name="home" />
            <span class="nav-text">Home</span>
          </Link>
        )}
        <ul class="nav-areas">
          {areas.map((area) => <AreaNav key={area.id} area={area} />)}
        </ul>
      </nav>
      <div class="sidebar-footer">
        <ul class="nav-system">
          {systemPages.filter((page) => page.nav !== false).map((page) => (
            <li key={page.path}>
              <Link href={page.path} class="nav-link" aria-current={currentFor(page.path, active)}>
                <Icon name={page.icon} />
                <span class="nav-text">{page.title}</span>
                {page.path === '/alerts' && <AlertingBadge />}
              </Link>
            </li>
          ))}
        </ul>
        <AlertingPoller />
        <div class="sidebar-meta">
          <span class="version" title="The running version">v{shellInfo.value?.version ?? '…'}</span>
          <button type="button" class="button button-ghost button-icon" onClick={() => void toggleTheme()}
            aria-label={dark ? 'Switch to the light theme' : 'Switch to the dark theme'} title={dark ? 'Light theme' : 'Dark theme'}>
            <Icon name={dark ? 'sun' : 'moon'} />
          </button>
        </div>
      </div>
    </div>
  );
}
