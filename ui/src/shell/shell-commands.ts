// The palette's actions that belong to the shell itself.
import { alertCommands } from '../areas/alerts/alert-commands.js';
import type { PaletteCommand } from '../areas/types.js';
import { effectiveTheme, settings, updateSettings } from './display-settings.js';
import { logOut } from './browser-actions.js';
import { shellInfo } from './shell-info.js';

/** Built when the palette opens, so titles say what a toggle will do now. */
export function shellCommands(): PaletteCommand[] {
  const s = settings.value;
  const dark = effectiveTheme.value === 'dark';
  return [
    {
      id: 'shell.theme', title: dark ? 'Switch to the light theme' : 'Switch to the dark theme', icon: dark ? 'sun' : 'moon',
      keywords: ['theme', 'dark', 'light', 'appearance', 'colors'],
      run: () => updateSettings({ theme: dark ? 'light' : 'dark' }),
    },
    ...(s.theme === 'system' ? [] : [{
      id: 'shell.theme-system', title: 'Follow the system theme', icon: 'settings' as const, keywords: ['theme', 'auto', 'os', 'appearance'],
      run: () => updateSettings({ theme: 'system' }),
    }]),
    {
      id: 'shell.simple', title: s.simple_mode ? 'Turn Simple mode off (show developer pages)' : 'Turn Simple mode on (hide developer pages)',
      icon: 'settings', keywords: ['simple', 'developer', 'advanced', 'mode'],
      run: () => updateSettings({ simple_mode: !s.simple_mode }),
    },
    {
      id: 'shell.effects', title: s.reduce_effects ? 'Turn Reduce effects off' : 'Turn Reduce effects on (no motion)',
      icon: 'settings', keywords: ['motion', 'animation', 'reduce', 'effects', 'accessibility'],
      run: () => updateSettings({ reduce_effects: !s.reduce_effects }),
    },
    { id: 'shell.shortcuts', title: 'Show keyboard shortcuts', icon: 'keyboard', shortcut: '?', keywords: ['keys', 'help', 'hotkeys'], run: (ctx) => ctx.openShortcuts() },
    { id: 'shell.logout', title: 'Log out', icon: 'logout', keywords: ['sign out', 'session', 'exit'], run: () => logOut() },
    ...(shellInfo.value?.plugins.includes('alerts') ? alertCommands() : []),
  ];
}
