// `/`: with the host monitor on, the home grid of every configured area's widgets (perch's home screen, this
// machine first); without it, the first configured area's own home (the gateway's overview is already a dashboard);
// when nothing is configured yet, a welcome that shows how to start.
import { useEffect } from 'preact/hooks';
import { areas } from '../areas/index.js';
import { Card } from '../components/card.js';
import { PageHeader } from '../components/page-header.js';
import { gridIsHome } from '../home/grid-is-home.js';
import { HomeScreen } from '../home/home-screen.js';
import { navigate } from './router.js';
import { homePath } from './routes.js';
import { isConfigured } from './shell-info.js';
import { AreaSetup } from './unconfigured-area-page.js';

export function HomePage() {
  const withWidgets = gridIsHome(areas, isConfigured);
  const home = withWidgets ? undefined : homePath(areas, isConfigured);
  useEffect(() => {
    if (home) navigate(home, { replace: true });
  }, [home]);
  if (withWidgets) return <HomeScreen areas={areas} configured={isConfigured} />;
  if (home) return null;
  return (
    <>
      <PageHeader title="Welcome to Vigil" subtitle="Nothing is set up yet. Each area below turns on with a few lines of config." />
      <div class="stack">
        {areas.map((area) => (
          <Card key={area.id}>
            <AreaSetup area={area} titled />
          </Card>
        ))}
      </div>
    </>
  );
}
