// Export and Import: the layout as a JSON file, to move it between installations (the ids are the same everywhere).
import { parseLayout, type HomeLayout, type ParsedLayout } from './layout.js';

export const LAYOUT_FILE = 'vigil-home-layout.json';
/** A layout file is a few KB; anything far bigger is not one. */
const MAX_FILE_BYTES = 256 * 1024;

/** Downloads `layout` as `{ layout }`, the shape GET /api/homelayout answers, so either can be imported. */
export function exportLayout(layout: HomeLayout): void {
  const blob = new Blob([`${JSON.stringify({ layout }, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = LAYOUT_FILE;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Reads a chosen file as a layout, with what is wrong with it in words. */
export async function readLayoutFile(file: File): Promise<ParsedLayout> {
  if (file.size > MAX_FILE_BYTES) return { ok: false, error: `${file.name} is ${Math.round(file.size / 1024)} KB; a layout file is a few KB` };
  let value: unknown;
  try {
    value = JSON.parse(await file.text());
  } catch {
    return { ok: false, error: `${file.name} is not JSON` };
  }
  const parsed = parseLayout(value);
  return parsed.ok ? parsed : { ok: false, error: `${file.name}: ${parsed.error}` };
}
