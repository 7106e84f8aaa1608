// THE one place the product's areas register with the shell: their pages, palette commands, record search and
// widgets. Add an area by adding its folder (ui/src/areas/<id>/index.ts exporting an `Area`) and listing it here;
// the sidebar, the router, the palette, the shortcut sheet and the server's page routes (the build reads this file,
// scripts/build-ui.mjs) all follow from it.
import type { Area, SystemPage } from './types.js';
import { gateway } from './gateway/index.js';
import { llm } from './llm/index.js';
import { host } from './host/index.js';

/** In sidebar order. */
export const areas: readonly Area[] = [gateway, llm, host];

/** The shell's own pages, listed below the areas. */
export const systemPages: readonly SystemPage[] = [
  {
    // Beside Settings rather than in an area: rules watch the gateway, the LLM platform and any plugin's sources.
    path: '/alerts',
    title: 'Alerts',
    icon: 'alert',
    shortcut: 'g n',
    keywords: ['alerting', 'rules', 'notifications', 'channels', 'webhook', 'slack', 'discord', 'ntfy', 'email', 'snooze', 'stop alerts', 'firing', 'incidents'],
    load: () => import('./alerts/alerts-page.js'),
  },
  {
    path: '/settings',
    title: 'Settings',
    icon: 'settings',
    shortcut: 'g s',
    keywords: ['theme', 'dark', 'light', 'simple mode', 'reduce effects', 'motion', 'display', 'log out'],
    load: () => import('../settings/settings-page.js'),
  },
  {
    path: '/settings/users',
    title: 'Users',
    icon: 'settings',
    nav: false,
    keywords: ['users', 'roles', 'invite', 'owner', 'admin', 'member', 'viewer', 'single sign-on', 'sso', 'oidc', 'disable'],
    load: () => import('../settings/users-page.js'),
  },
  {
    path: '/settings/audit',
    title: 'Audit log',
    icon: 'settings',
    nav: false,
    keywords: ['audit', 'sign-ins', 'changes', 'who', 'history', 'security'],
    load: () => import('../settings/audit-page.js'),
  },
  {
    path: '/about',
    title: 'About',
    icon: 'about',
    shortcut: 'g i',
    keywords: ['version', 'install', 'data directory', 'config file', 'storage', 'uptime', 'plugins', 'update', 'upgrade', 'restart', 'release'],
    load: () => import('../about/about-page.js'),
  },
];

export type { Area, AreaPage, SystemPage, PaletteCommand, CommandContext, RecordSearch, RecordHit, PageProps, IconName } from './types.js';
