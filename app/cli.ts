import { main } from '../runtime/cli/main.js';
import { vigil } from './composition.js';

/** The `vigil` command (bin/vigil.js): the words after the script; resolves to the exit code. */
export function cli(argv: readonly string[]): Promise<number> {
  return main(argv, vigil);
}
