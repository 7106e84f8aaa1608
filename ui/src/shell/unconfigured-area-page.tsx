// An area with nothing configured: what it is, and the lines of config that turn it on.
import type { Area } from '../areas/types.js';
import { Card } from '../components/card.js';
import { CodeBlock } from '../components/code-block.js';
import { Icon } from '../components/icon.js';
import { PageHeader } from '../components/page-header.js';
import { Link } from './router.js';
import { shellInfo } from './shell-info.js';

/** What an area is and how to turn it on; `titled` when several are listed (the welcome page). */
export function AreaSetup({ area, titled }: { area: Area; titled?: boolean }) {
  const file = shellInfo.value?.config_file;
  return (
    <div class="area-setup">
      <div class="area-setup-icon"><Icon name={area.icon} /></div>
      <div class="area-setup-body">
        {titled ? <h2 class="area-setup-title">{area.title}</h2> : <h2 class="area-setup-subtitle">What it is</h2>}
        <p class="area-setup-description">{area.description}</p>
        {area.status === 'planned' || area.enableSnippet === undefined ? (
          <p class="area-setup-step">This area arrives in a later version of Vigil; this build cannot turn it on yet.</p>
        ) : (
          <>
            <p class="area-setup-step">
              Add these lines to {file ? <code class="inline-code">{file}</code> : 'the config file'}, then restart <code class="inline-code">vigil run</code>:
            </p>
            <CodeBlock code={area.enableSnippet} label={`${area.title} config`} language="yaml" />
          </>
        )}
      </div>
    </div>
  );
}

export function UnconfiguredAreaPage({ area }: { area: Area }) {
  return (
    <>
      <PageHeader title={area.title} subtitle={area.status === 'planned' ? 'Coming in a later version' : 'Not set up in this installation'} />
      <Card>
        <AreaSetup area={area} />
      </Card>
      <p class="page-footnote">
        <Link href="/about">About</Link> lists the plugins this installation runs.
      </p>
    </>
  );
}
