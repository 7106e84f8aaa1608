// Whether `/` is the home grid: with the host monitor on (perch's home screen, this machine first). Without it, `/`
// opens the first configured area's own home: the gateway's overview is a dashboard already.
import type { Area } from '../areas/types.js';

/** The area whose being on makes the grid the home page. */
const GRID_AREA = 'host';

export function gridIsHome(areas: readonly Area[], configured: (area: Area) => boolean): boolean {
  return areas.some((a) => a.id === GRID_AREA && configured(a) && (a.widgets?.length ?? 0) > 0);
}
