// The Fleet page: one grid of machines (this one first) as the poller last saw them, a form to add one, and the read
// tokens that let other instances show this one. The page reads the poller's last result: it never waits on a peer.
import { useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { deleteJson } from '../../data/api.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { announce } from '../../shell/announcer.js';
import { shellInfo } from '../../shell/shell-info.js';
import { PEER_SNIPPET, type FleetGrid, type FleetReadTokenList } from './fleet-api.js';
import { AddMachineForm } from './fleet-add-form.js';
import { MachineTile } from './fleet-machine.js';
import { ReadTokensCard } from './read-tokens-card.js';

/** The grid refreshes at the poll's interval, never faster than this. */
const MIN_REFRESH_MS = 5000;

function HowToAdd({ onAdd }: { onAdd(): void }) {
  return (
    <EmptyState icon="host" title="No other machine yet"
      actions={<>
        <CodeBlock label="the config of the machine to add" language="yaml" code={PEER_SNIPPET} />
        <button type="button" class="button button-primary" onClick={onAdd}>Add a machine</button>
      </>}>
      <ol class="fleet-steps">
        <li>On the other machine, put these lines in its vigil.yaml (with the name you reach it by) and restart it.</li>
        <li>There, open Host → Fleet and create a read token.</li>
        <li>Here, add the machine with its URL (http://web-1.lan:9095) and that token.</li>
      </ol>
    </EmptyState>
  );
}

export default function FleetPage() {
  const enabled = shellInfo.value?.plugins.includes('fleet') ?? false;
  const grid = useResource<FleetGrid>(enabled ? '/api/fleet' : null, 'the fleet');
  const tokens = useResource<FleetReadTokenList>(enabled ? '/api/fleet/tokens' : null, 'the read tokens');
  const [adding, setAdding] = useState(false);
  useWhileVisible(() => { if (enabled) grid.reload(); }, Math.max(MIN_REFRESH_MS, grid.data?.interval_ms ?? 15_000));
  const header = (
    <PageHeader title="Fleet" subtitle={grid.data
      ? `Other Vigil instances, read-only: polled every ${Math.round(grid.data.interval_ms / 1000)} s, down after ${Math.round(grid.data.timeout_ms / 1000)} s without an answer.`
      : 'Other Vigil instances, read-only.'} />
  );
  if (!enabled) {
    return <>{header}<EmptyState icon="host" title="The fleet view is not on" actions={<CodeBlock label="the config that turns the fleet on" language="yaml" code="fleet: {}" />}>Add this line to the config file and restart Vigil.</EmptyState></>;
  }
  const machines = grid.data?.machines ?? [];
  const others = machines.filter((m) => m.source !== 'self');
  const remove = (name: string) => async () => {
    await deleteJson(`/api/fleet/peers/${encodeURIComponent(name)}`, { what: 'the machine' });
    announce(`${name} is removed from the fleet.`);
    grid.reload();
  };
  return (
    <>
      {header}
      <div class="stack fleet-page">
        <Card title="Machines" description={others.length ? `${others.filter((m) => m.status === 'up').length} of ${others.length} other ${others.length === 1 ? 'machine' : 'machines'} up` : 'This machine only, so far'}
          actions={!adding && <button type="button" class="button button-primary" onClick={() => setAdding(true)}>Add machine</button>}>
          {adding && <AddMachineForm onCancel={() => setAdding(false)} onAdded={(p) => { setAdding(false); announce(`${p.name} is added; its first poll is under way.`); grid.reload(); }} />}
          {grid.error && <ErrorState error={grid.error} onRetry={grid.reload} />}
          {grid.loading && !grid.data && <Loading label="Loading the fleet" lines={3} />}
          {grid.data && (
            <div class="fleet-grid" role="list" aria-label="Machines">
              {machines.map((m) => (
                <div role="listitem" key={`${m.source}:${m.name}`}>
                  <MachineTile machine={m} onRemove={m.source === 'store' ? remove(m.name) : undefined} />
                </div>
              ))}
            </div>
          )}
          {grid.data && others.length === 0 && !adding && <HowToAdd onAdd={() => setAdding(true)} />}
        </Card>
        <ReadTokensCard tokens={tokens} />
      </div>
    </>
  );
}
