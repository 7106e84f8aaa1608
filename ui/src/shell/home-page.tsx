// `/`: the first configured area's home, or, when nothing is configured yet, a welcome that shows how to start.
import { useEffect } from 'preact/hooks';
import { areas } from '../areas/index.js';
import { Card } from '../components/card.js';
import { PageHeader } from '../components/page-header.js';
import { navigate } from './router.js';
import { homePath } from './routes.js';
import { isConfigured } from './shell-info.js';
import { AreaSetup } from './unconfigured-area-page.js';

export function HomePage() {
  const home = homePath(areas, isConfigured);
  useEffect(() => {
    if (home) navigate(home, { replace: true });
  }, [home]);
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
