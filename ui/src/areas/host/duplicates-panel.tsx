// Duplicate files: same size, then the same first 64 KB, then the same whole file. Nothing is deleted here; each
// path opens its File page, where it can be moved to the trash after a confirmation.
import { useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { formatInteger } from '../../format/numbers.js';
import { defaultFolder, filePageOf, useScan, type FilesSettings } from './files-api.js';
import { FolderField, NumberField } from './folder-field.js';
import { formatBytes } from './host-format.js';
import { ScanProgress } from './scan-progress.js';

const PHASES = { walking: 'listing files', fingerprint: 'comparing the first 64 KB', hashing: 'hashing whole files', done: 'done' } as const;

export function DuplicatesPanel({ settings }: { settings: FilesSettings }) {
  const [path, setPath] = useState(defaultFolder(settings));
  const [minKb, setMinKb] = useState(1);
  const run = useScan('the duplicate search');
  const scan = run.scan;
  const d = scan?.duplicates;
  const extra = d ? `${PHASES[d.phase]}${d.phase === 'hashing' && d.hash_bytes_total > 0 ? ` (${formatBytes(d.hash_bytes_done)} of ${formatBytes(d.hash_bytes_total)})` : d.phase === 'fingerprint' ? ` (${formatInteger(d.fingerprinted)} of ${formatInteger(d.candidates)})` : ''}` : undefined;
  return (
    <Card title="Duplicates" description="Files with the same content: same size, then the same first 64 KB, then the same whole file. Hard links are one file. Nothing is deleted here.">
      <form class="scan-form" onSubmit={(e) => { e.preventDefault(); run.start({ kind: 'duplicates', path, min_size: minKb * 1024 }); }}>
        <FolderField label="Folder" value={path} onChange={setPath} />
        <NumberField label="Smallest file" unit="KB" value={minKb} min={0} onChange={setMinKb} />
        <div class="form-actions"><button type="submit" class="button button-primary" disabled={run.running}>Find duplicates</button></div>
      </form>
      {run.error && <ErrorState error={run.error} compact />}
      {scan && <ScanProgress scan={scan} onCancel={run.cancel} extra={extra} />}
      {d && scan?.state !== 'running' && (
        <p class="scan-summary">
          {d.groups_total === 0 ? 'No duplicates found.' : `${formatInteger(d.groups_total)} ${d.groups_total === 1 ? 'group' : 'groups'}; removing every copy but one would free ${formatBytes(d.wasted)}.`}
          {d.unconfirmed > 0 && ` ${formatInteger(d.unconfirmed)} files were not compared before the stop.`}
        </p>
      )}
      {d && d.groups.length > 0 && (
        <ul class="dupe-groups" aria-label="Duplicate groups, most space first">
          {d.groups.map((g) => (
            <li key={g.paths[0]} class="dupe-group">
              <p class="dupe-head"><strong>{formatBytes(g.bytes)}</strong> × {g.paths.length} copies · {formatBytes(g.wasted)} to free · <span class="muted">{g.proof === 'full-hash' ? 'whole files hashed' : 'small: the fingerprint is the whole file'}</span></p>
              <ul class="dupe-paths">
                {g.paths.map((p) => <li key={p}><a href={filePageOf(p)}><code>{p}</code></a></li>)}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
