// `/`: the home screen, one grid of widgets from every configured area. "Customize" shows the handles to move,
// resize and remove tiles, the gallery to add them, Export and Import to move the layout between installations,
// and Reset to go back to the default.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Area } from '../areas/types.js';
import { Icon } from '../components/icon.js';
import { PageHeader } from '../components/page-header.js';
import { useLive } from '../data/live.js';
import { useResource } from '../data/use-resource.js';
import { announce } from '../shell/announcer.js';
import { shellInfo } from '../shell/shell-info.js';
import { HomeGrid } from './home-grid.js';
import { galleryWidgets, showWidget, withDefaults } from './layout.js';
import { exportLayout, readLayoutFile } from './layout-file.js';
import { loadLayout, receivedLayout, savedLayout, saveLayout, saveState } from './layout-store.js';
import { needsCaps, offeredWidgets } from './offered-widgets.js';
import { WidgetGallery } from './widget-gallery.js';

export function HomeScreen({ areas, configured }: { areas: readonly Area[]; configured: (area: Area) => boolean }) {
  const [editing, setEditing] = useState(false);
  const [galleryOpen, setGalleryOpen] = useState(false);
  const [importError, setImportError] = useState<string | undefined>(undefined);
  const fileInput = useRef<HTMLInputElement>(null);
  // Capabilities change with hardware, not by the minute: read once per visit of the page.
  const caps = useResource<Record<string, unknown>>(needsCaps(areas, configured) ? '/api/caps' : null, 'the machine\'s capabilities');
  const plugins = shellInfo.value?.plugins;
  const offered = useMemo(
    () => offeredWidgets(areas, { configured, plugins: new Set(plugins ?? []), caps: caps.data }, 'host'),
    [areas, plugins, caps.data],
  );
  useEffect(() => { void loadLayout(); }, []);
  useLive('ui.homelayout', receivedLayout);

  const saved = savedLayout.value;
  const layout = useMemo(() => withDefaults(saved ?? null, offered), [saved, offered]);
  const gallery = galleryWidgets(layout, offered);

  const onImport = async (e: Event) => {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const parsed = await readLayoutFile(file);
    if (!parsed.ok) {
      setImportError(parsed.error);
      return;
    }
    setImportError(undefined);
    await saveLayout(parsed.layout);
    announce(`Layout imported from ${file.name}`);
  };

  const state = saveState.value;
  return (
    <>
      <PageHeader title="Home" subtitle={editing ? 'Drag a tile by its handle to move it, by its corner to resize it; or use the arrow keys on either.' : 'This machine and your areas at a glance.'}
        actions={editing ? (
          <>
            <button type="button" class="button button-secondary" onClick={() => setGalleryOpen(true)}><Icon name="plus" />Add a widget</button>
            <button type="button" class="button button-ghost" onClick={() => exportLayout(layout)}><Icon name="download" />Export</button>
            <button type="button" class="button button-ghost" onClick={() => fileInput.current?.click()}><Icon name="upload" />Import</button>
            <button type="button" class="button button-ghost" onClick={() => { void saveLayout(null); setImportError(undefined); announce('Layout reset to the default'); }}>
              <Icon name="refresh" />Reset
            </button>
            <button type="button" class="button button-primary" onClick={() => setEditing(false)}><Icon name="check" />Done</button>
          </>
        ) : (
          <button type="button" class="button button-secondary" onClick={() => setEditing(true)}><Icon name="edit" />Customize</button>
        )} />
      <input ref={fileInput} type="file" accept="application/json,.json" class="sr-only" tabIndex={-1} aria-hidden="true" onChange={onImport} />
      {importError && <p class="home-notice home-notice-error" role="alert">Not imported: {importError}.</p>}
      {state === 'offline' && <p class="home-notice" role="status">The layout is saved in this browser only: the server could not be reached. It is sent with the next change.</p>}
      {saved === undefined ? null : offered.length === 0 ? (
        <p class="home-notice">No widget is offered yet: turn an area on (its page says how).</p>
      ) : (
        <HomeGrid layout={layout} offered={offered} editing={editing} />
      )}
      {saved !== undefined && layout.order.length > 0 && offered.length > 0 && !layout.order.some((id) => offered.some((w) => w.id === id && !layout.hidden.includes(id))) && (
        <div class="home-empty">
          <p>Every widget was removed.</p>
          <button type="button" class="button button-secondary" onClick={() => { setEditing(true); setGalleryOpen(true); }}><Icon name="plus" />Add a widget</button>
        </div>
      )}
      <WidgetGallery open={galleryOpen} widgets={gallery} onClose={() => setGalleryOpen(false)}
        onAdd={(id) => {
          void saveLayout(showWidget(layout, id));
          const title = offered.find((w) => w.id === id)?.title ?? id;
          announce(`${title} added at the end of the grid`);
          if (gallery.length <= 1) setGalleryOpen(false);
        }} />
    </>
  );
}
