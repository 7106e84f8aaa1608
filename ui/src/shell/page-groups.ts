import type { AreaPage } from '../areas/types.js';

/** An area's listed pages split into those shown first and the named folds, each in the registry's order. */
export function groupPages(pages: AreaPage[]): { ungrouped: AreaPage[]; groups: [string, AreaPage[]][] } {
  const ungrouped: AreaPage[] = [];
  const groups = new Map<string, AreaPage[]>();
  for (const page of pages) {
    if (!page.group) ungrouped.push(page);
    else groups.set(page.group, [...(groups.get(page.group) ?? []), page]);
  }
  return { ungrouped, groups: [...groups] };
}
