// Which two versions of a prompt template the template page shows, as the URL names them. Pure.

const VERSION = /^[1-9][0-9]{0,8}$/;

/**
 * The versions the URL names, checked against the template's: a version (default the latest) and another to compare
 * it with (default the one before it; `against=none` for none).
 */
export function chosenVersions(search: string, versions: readonly number[]): { version: number; against: number | null } {
  const q = new URLSearchParams(search);
  const pick = (name: string) => { const v = q.get(name); return v !== null && VERSION.test(v) && versions.includes(Number(v)) ? Number(v) : null; };
  const version = pick('version') ?? versions[versions.length - 1];
  if (q.get('against') === 'none') return { version, against: null };
  const against = pick('against') ?? versions.filter((v) => v < version).pop() ?? null;
  return { version, against: against === version ? null : against };
}
