// The dashboard's entry: learn the installation's shape (`/api/ui/shell`), then render the shell. Everything a page
// needs beyond the shell loads with its page.
import './styles/index.css';
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { getJson } from './data/api.js';
import type { ApiError } from './data/api-error.js';
import { useLive } from './data/live.js';
import { ErrorState } from './components/error-state.js';
import { receiveSettings, type DisplaySettings } from './shell/display-settings.js';
import { Layout } from './shell/layout.js';
import { startRouter } from './shell/router.js';
import { areas } from './areas/index.js';
import { loadMachineCaps } from './shell/machine-caps.js';
import { isConfigured, shellInfo, type ShellInfo } from './shell/shell-info.js';

/** Display settings changed in another tab (or by another person) arrive on the stream and apply here too. */
function SettingsFollower() {
  useLive('ui.settings', (data) => receiveSettings(data as DisplaySettings));
  return null;
}

function App() {
  return (
    <>
      <SettingsFollower />
      <Layout />
    </>
  );
}

function BootFailure({ error }: { error: ApiError }) {
  const [retrying, setRetrying] = useState(false);
  return (
    <main class="boot-failure">
      <h1>Vigil's dashboard did not start</h1>
      <ErrorState error={error} onRetry={retrying ? undefined : () => { setRetrying(true); void boot(); }} />
    </main>
  );
}

async function boot(): Promise<void> {
  const root = document.getElementById('app')!;
  try {
    const info = await getJson<ShellInfo>('/api/ui/shell', { what: 'the dashboard\'s start' });
    shellInfo.value = info;
    receiveSettings(info.settings);
    render(<App />, root);
    void loadMachineCaps(areas, isConfigured);
  } catch (err) {
    // A 401 is already on its way to the login form.
    if ((err as ApiError).kind === 'unauthorized') return;
    render(<BootFailure error={err as ApiError} />, root);
  }
}

startRouter();
void boot();
