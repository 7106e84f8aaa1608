// Host › Storage: disk usage per mount (the probes plugin's live reading), then the files plugin's tools, one at a
// time, chosen in the address (?tab=): folder sizes, duplicates, big old files, filename search, the trash, clean-up, backup;
// drives and container disk usage (where docker answers) below the mounts.
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Segmented, type SegmentedOption } from '../../components/segmented.js';
import { Loading } from '../../components/skeleton.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { here, navigate } from '../../shell/router.js';
import { readChoice, withParams } from '../../shell/url-state.js';
import { BackupPanel } from './backup-panel.js';
import { CleanupPanel } from './cleanup-panel.js';
import { ContainersDiskCard, DrivesCard } from './drives-card.js';
import { DuplicatesPanel } from './duplicates-panel.js';
import { FileSearchPanel } from './file-search-panel.js';
import type { FilesSettings } from './files-api.js';
import { FolderSizesPanel } from './folder-sizes-panel.js';
import type { LiveReading } from './host-api.js';
import { formatBytes, formatShare, LIMITS, meterTone } from './host-format.js';
import { Meter } from './meter.js';
import { OldFilesPanel } from './old-files-panel.js';
import { TrashPanel } from './trash-panel.js';

const TABS = ['sizes', 'duplicates', 'old', 'search', 'trash', 'cleanup', 'backup'] as const;
type Tab = typeof TABS[number];
const TAB_OPTIONS: SegmentedOption<Tab>[] = [
  { value: 'sizes', label: 'Folder sizes' },
  { value: 'duplicates', label: 'Duplicates' },
  { value: 'old', label: 'Old files', description: 'Big old files' },
  { value: 'search', label: 'Find', description: 'Find files by name' },
  { value: 'trash', label: 'Trash' },
  { value: 'cleanup', label: 'Clean up', description: 'Clean up caches' },
  { value: 'backup', label: 'Backup' },
];
/** Mount usage changes slowly; a hung network mount costs a statfs timeout. */
const DISKS_MS = 30_000;

function DisksCard() {
  const live = useResource<LiveReading>('/api/host/live', 'the disks');
  useWhileVisible(live.reload, DISKS_MS);
  const mounts = [...(live.data?.disks ?? [])].sort((a, b) => (b.percent ?? -1) - (a.percent ?? -1));
  return (
    <Card title="Disks" description="Usage of each real partition, fullest first (as df shows it)">
      {live.error && <ErrorState error={live.error} onRetry={live.reload} compact />}
      {live.loading && !live.data && <Loading label="Reading the partitions" lines={2} />}
      {live.data && mounts.length === 0 && <p class="host-note">No partition could be read (a container without mounts of its own has none).</p>}
      <div class="storage-mounts">
        {mounts.map((m) => (
          <Meter key={`${m.device}:${m.mount}`} label={<code title={`${m.device} (${m.fs_type})`}>{m.mount}</code>} percent={m.percent}
            tone={meterTone(m.percent, LIMITS.disk)} value={formatShare(m.percent)}
            detail={m.total_bytes === null ? `${m.fs_type}: its size could not be read in time` : `${formatBytes(m.used_bytes)} used, ${formatBytes(m.available_bytes)} free of ${formatBytes(m.total_bytes)} · ${m.device} · ${m.fs_type}`} />
        ))}
      </div>
    </Card>
  );
}

export default function StoragePage() {
  const { path, search } = here.value;
  const tab = readChoice(search, 'tab', TABS, 'sizes');
  const settings = useResource<FilesSettings>('/api/files', 'the file tools');
  const off = settings.error?.status === 404;
  return (
    <>
      <PageHeader title="Storage" subtitle="Disks, folder sizes, duplicates, big old files, search and the trash. Scans run under a time budget and never delete anything." />
      <div class="storage-top">
        <DisksCard />
        {settings.data && <DrivesCard />}
        {settings.data && <ContainersDiskCard />}
      </div>
      {off && (
        <EmptyState icon="host" title="The file tools are off">
          <p>Add <code>files: {'{}'}</code> to the config file to count folder sizes, find duplicates and old files, search names and use the trash.</p>
        </EmptyState>
      )}
      {settings.error && !off && <ErrorState error={settings.error} onRetry={settings.reload} />}
      {settings.data && (
        <>
          <div class="toolbar storage-tabs">
            <Segmented label="Tool" options={TAB_OPTIONS} value={tab} onChange={(next) => navigate(path + withParams(search, { tab: next }, { tab: 'sizes' }), { replace: true })} />
          </div>
          {tab === 'sizes' && <FolderSizesPanel settings={settings.data} />}
          {tab === 'duplicates' && <DuplicatesPanel settings={settings.data} />}
          {tab === 'old' && <OldFilesPanel settings={settings.data} />}
          {tab === 'search' && <FileSearchPanel settings={settings.data} />}
          {tab === 'trash' && <TrashPanel />}
          {tab === 'cleanup' && <CleanupPanel />}
          {tab === 'backup' && <BackupPanel />}
        </>
      )}
    </>
  );
}
