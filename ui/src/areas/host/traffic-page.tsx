// Traffic: per-interface rates, live connections with their processes, and packet captures viewed in place.
import { PageHeader } from '../../components/page-header.js';
import { CapturesCard } from './captures-card.js';
import { ConnectionsCard } from './connections-card.js';
import { InterfacesCard } from './interfaces-card.js';
import { NetworkOff, networkOn } from './network-off.js';

export default function HostTrafficPage() {
  const header = <PageHeader title="Traffic" subtitle="Who talks to whom now, how fast each interface moves, and packet captures on request." />;
  if (!networkOn()) return <>{header}<NetworkOff /></>;
  return (
    <>
      {header}
      <div class="stack">
        <InterfacesCard />
        <ConnectionsCard />
        <CapturesCard />
      </div>
    </>
  );
}
