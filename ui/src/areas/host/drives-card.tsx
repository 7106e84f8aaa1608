// Whole disks (GET /api/diskhealth): model, size, SSD or spinning; and container disk usage where docker answers
// (GET /api/dockerdisk), hidden where it does not.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../data/use-resource.js';
import type { DiskHealth, DockerDisk, Drive } from '../../data/api.gen.js';
import { formatBytes } from './host-format.js';
import { SmartCheck } from './smart-check.js';

type DockerRow = NonNullable<DockerDisk['rows']>[number];

export function DrivesCard() {
  const health = useResource<DiskHealth>('/api/diskhealth', 'the drives');
  const smartctl = health.data?.smartctl ?? false;
  const helper = health.data?.helper ?? false;
  const columns: Column<Drive>[] = [
    { key: 'name', label: 'Drive', card: 'top', value: (d) => d.name, render: (d) => <span><strong>{d.model ?? d.name}</strong><br /><code class="muted">{d.device}</code></span> },
    { key: 'size', label: 'Size', align: 'end', card: 'lead', value: (d) => d.size_bytes, render: (d) => formatBytes(d.size_bytes) },
    {
      key: 'type', label: 'Type', card: 'main', value: (d) => d.type,
      render: (d) => <span>{d.type === 'ssd' ? 'SSD' : 'Spinning'}{d.virtual ? <> <Badge title="A hypervisor's disk: its type and health are the host's">virtual</Badge></> : null}{d.removable ? <> <Badge>removable</Badge></> : null}</span>,
    },
    {
      key: 'smart', label: 'SMART', sortable: false, value: () => null,
      render: (d) => (!smartctl ? <span class="muted">smartctl is not installed</span>
        : !helper ? <span class="muted">runs through the privileged helper: add <code>privilege: {'{}'}</code></span>
        : <SmartCheck device={d.device} />),
    },
  ];
  return (
    <Card title="Drives" description="Whole disks: model, size, and SSD or spinning (the kernel's rotational flag)">
      {health.error && <ErrorState error={health.error} onRetry={health.reload} compact />}
      {health.data && (
        <Table caption="Drives" columns={columns} rows={health.data.drives} rowKey={(d) => d.name} layout="cards"
          empty={<p class="host-note">No whole disk is listed in /sys/block here (a container sees none of its own).</p>} />
      )}
    </Card>
  );
}

const dockerColumns: Column<DockerRow>[] = [
  { key: 'type', label: 'What', card: 'top', value: (r) => r.type },
  { key: 'total', label: 'Count', align: 'end', card: 'lead', value: (r) => r.total, render: (r) => `${r.total} (${r.active} in use)` },
  { key: 'size', label: 'Size', align: 'end', card: 'main', value: (r) => r.size },
  { key: 'reclaimable', label: 'Reclaimable', align: 'end', value: (r) => r.reclaimable },
];

/** Shown only where docker answers. */
export function ContainersDiskCard() {
  const docker = useResource<DockerDisk>('/api/dockerdisk', 'the container disk usage');
  if (!docker.data?.available) return null;
  return (
    <Card title="Containers" description="Disk used by Docker's images, containers, volumes and build cache, and what pruning would reclaim">
      <Table caption="Container disk usage" columns={dockerColumns} rows={docker.data.rows ?? []} rowKey={(r) => r.type} />
    </Card>
  );
}
