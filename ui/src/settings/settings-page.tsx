// Settings: the display settings of this installation (saved on the server, for every browser), your access, and the
// sessions.
import { Card } from '../components/card.js';
import { Icon } from '../components/icon.js';
import { PageHeader } from '../components/page-header.js';
import { Segmented } from '../components/segmented.js';
import { Switch } from '../components/switch.js';
import { settings, systemPrefersDark, systemReducesMotion, updateSettings, type Theme } from '../shell/display-settings.js';
import { openShortcuts } from '../shell/overlays.js';
import { AccessCard } from './access-card.js';
import { SessionsCard } from './sessions-card.js';

const themes: { value: Theme; label: string; description: string }[] = [
  { value: 'system', label: 'System', description: 'Follow the system theme' },
  { value: 'light', label: 'Light', description: 'Light theme' },
  { value: 'dark', label: 'Dark', description: 'Dark theme' },
];

export default function SettingsPage() {
  const s = settings.value;
  return (
    <>
      <PageHeader title="Settings" subtitle="Display settings are saved on the server for this installation, so every browser that opens it sees them." />
      <div class="stack">
        <Card title="Appearance">
          <div class="setting-row">
            <div class="setting-text">
              <span class="setting-label" id="theme-label">Theme</span>
              <p class="setting-description">
                {s.theme === 'system' ? `Following the system, which is ${systemPrefersDark.value ? 'dark' : 'light'} now.` : 'Fixed, whatever the system prefers.'}
              </p>
            </div>
            <Segmented label="Theme" options={themes} value={s.theme} onChange={(theme) => void updateSettings({ theme })} />
          </div>
          <Switch label="Simple mode" checked={s.simple_mode} onChange={(v) => void updateSettings({ simple_mode: v })}
            description="Hides the pages meant for developers (a gateway's policy and API listing) from the sidebar, the palette and the shortcuts. Their addresses keep working." />
          <Switch label="Reduce effects" checked={s.reduce_effects || systemReducesMotion.value} disabled={systemReducesMotion.value}
            onChange={(v) => void updateSettings({ reduce_effects: v })}
            description={systemReducesMotion.value
              ? 'On: your system asks for reduced motion, and the dashboard follows it.'
              : 'No animations, transitions or translucency. It is also on whenever your system asks for reduced motion.'} />
        </Card>
        <Card title="Keyboard">
          <div class="setting-row">
            <div class="setting-text">
              <span class="setting-label">Shortcuts</span>
              <p class="setting-description">Every page and action can be reached from the keyboard. Press <kbd>?</kbd> anywhere to see the shortcuts.</p>
            </div>
            <button type="button" class="button button-secondary" onClick={openShortcuts}><Icon name="keyboard" /> Show shortcuts</button>
          </div>
        </Card>
        <AccessCard />
        <SessionsCard />
      </div>
    </>
  );
}
