// The sidebar: the areas with their pages (an area that is not set up is one link to what it is), then Settings,
// About, the theme toggle and the version.
import { areas, systemPages } from '../areas/index.js';
import type { Area } from '../areas/types.js';
import { Icon } from '../components/icon.js';
import { effectiveTheme, settings, toggleTheme } from './display-settings.js';
import { usesCommandKey } from './key-sequence.js';
import { openPalette } from './overlays.js';
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
  return (
    <li class="nav-area">
      <div class="nav-area-title" id={`nav-${area.id}`}>
        <Icon name={area.icon} />
        <span>{area.title}</span>
      </div>
      <ul class="nav-pages" aria-labelledby={`nav-${area.id}`}>
        {pages.map((page) => (
          <li key={page.path}>
            <Link href={page.path} class="nav-link" aria-current={currentFor(page.path, active)}>
              {page.icon && <Icon name={page.icon} />}
              <span class="nav-text">{page.title}</span>
            </Link>
          </li>
        ))}
      </ul>
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
      <nav class="nav" aria-label="Main">
        <ul class="nav-areas">
          {areas.map((area) => <AreaNav key={area.id} area={area} />)}
        </ul>
      </nav>
      <div class="sidebar-footer">
        <ul class="nav-system">
          {systemPages.map((page) => (
            <li key={page.path}>
              <Link href={page.path} class="nav-link" aria-current={currentFor(page.path, active)}>
                <Icon name={page.icon} />
                <span class="nav-text">{page.title}</span>
              </Link>
            </li>
          ))}
        </ul>
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
