/** What a script or target is run with: a program and its arguments, never a shell string. */
export type ScriptKind = 'npm' | 'pnpm' | 'yarn' | 'bun' | 'make';

export interface ProjectScript {
  kind: ScriptKind;
  name: string;
  /** The program and arguments the run starts, in the folder (shown to the user before it runs). */
  argv: string[];
  /** The script's own text (package.json) or where the target is defined (Makefile:12); null when unknown. */
  detail: string | null;
  /** make: the Makefile's default goal; a `.PHONY` target. */
  default_goal?: boolean;
  phony?: boolean;
}

/** Scripts and targets one folder offers at most (per kind); the answer says when some were left out. */
export const MAX_SCRIPTS = 500;

/**
 * Names a run may take: what npm and make would not read as an option (a leading `-`), a variable assignment (`=` to
 * make) or two arguments (whitespace), and nothing unprintable.
 */
export function runnableName(name: string): boolean {
  return name.length > 0 && name.length <= 200 && !name.startsWith('-') && !/[\s=\p{Cc}]/u.test(name);
}

/** How the command line reads in the confirmation and the audit log: arguments with shell-special characters quoted. */
export function commandLine(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
