import { missingFlags, respawn } from './respawn.js';

/**
 * The `vigil` process's entry (bin/vigil.js): `script` is the file Node runs, `argv` the words after it. `vigil run`
 * without its V8 flags on Node's command line serves from a child started with them; everything else runs here.
 */
export async function cli(script: string, argv: readonly string[]): Promise<number> {
  const missing = argv[0] === 'run' ? missingFlags() : [];
  if (missing.length > 0) return respawn(missing, script, argv);
  const { main } = await import('./main.js');
  return main(argv);
}
