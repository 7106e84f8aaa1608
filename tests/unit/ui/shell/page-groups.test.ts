import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { areas } from '../../../../ui/src/areas/index.js';
import type { AreaPage } from '../../../../ui/src/areas/types.js';
import { groupPages } from '../../../../ui/src/shell/page-groups.js';
import { isListed } from '../../../../ui/src/shell/routes.js';
import { capPresent } from '../../../../ui/src/shell/machine-caps.js';
import { capsSchema } from '../../../../plugins/probes/response-schemas.js';

const page = (path: string, group?: string): AreaPage => ({ path, title: path, group, load: async () => ({ default: () => null }) });

test('pages without a fold come first; folds keep the registry\'s order, of folds and of pages within each', () => {
  const { ungrouped, groups } = groupPages([page('/a'), page('/b', 'Dev'), page('/c', 'Sys'), page('/d'), page('/e', 'Dev')]);
  assert.equal(ungrouped.map((p) => p.path), ['/a', '/d']);
  assert.equal(groups.map(([name, pages]) => [name, pages.map((p) => p.path)]), [['Dev', ['/b', '/e']], ['Sys', ['/c']]]);
});

test('the host area reads as a few headings: at most ten pages unfolded, and Simple mode leaves no empty fold', () => {
  const host = areas.find((a) => a.id === 'host')!;
  const listed = host.pages.filter((p) => isListed(p, false));
  assert.ok(groupPages(listed).ungrouped.length <= 10, `${groupPages(listed).ungrouped.length} host pages outside a fold`);
  const simple = groupPages(host.pages.filter((p) => isListed(p, true)));
  for (const [name, pages] of simple.groups) assert.ok(pages.length > 0, `fold ${name} is empty in Simple mode`);
  assert.not.ok(simple.groups.some(([name]) => name === 'Developer tools'), 'Simple mode hides every developer page, so their fold too');
});

test('a page that needs a capability names one /api/caps reports, and is listed only where it is present', () => {
  const capped = areas.flatMap((a) => a.pages).filter((p) => p.cap !== undefined);
  assert.ok(capped.some((p) => p.path === '/host/gnome'), 'GNOME tweaks are offered only with GNOME');
  for (const p of capped) assert.ok(p.cap! in (capsSchema.properties as Record<string, unknown>), `${p.path} needs "${p.cap}", which /api/caps does not report`);
  assert.ok(capPresent({ gnome: true }, 'gnome'));
  assert.not.ok(capPresent({ gnome: false }, 'gnome'));
});

test.run();
