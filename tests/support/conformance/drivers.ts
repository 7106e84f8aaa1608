// The clients the wire-contract conformance suite runs (tests/integration/llm-client-conformance.test.ts), one line
// each. A driver is a program that speaks the protocol of docs/llm-wire-contract.md ("Conformance"): env
// VIGIL_BASE_URL and VIGIL_PROJECT_KEY, one JSON object `{ items, options }` on stdin, one line `{"sent","dropped"}`
// on stdout, exit 0. `toolchain` is the executable the driver needs; where it is missing the client's cases fail
// under CI=true and are reported as not run elsewhere.
import { existsSync } from 'node:fs';
import { fromRoot } from '../paths.js';

export interface ClientDriver {
  name: string;
  /** The program and its arguments. */
  command: string;
  args: string[];
  /** Where it runs (default: the repository root). */
  cwd?: string;
  /** The executable that must exist for the driver to run (a path, or a name looked up on PATH). */
  toolchain: string;
}

/** Debian's python3: the client is tested with the interpreter the machine ships, not a user's pyenv shim. */
export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

export const DRIVERS: ClientDriver[] = [
  { name: 'node', command: process.execPath, args: [fromRoot('dist/tests/support/conformance/node-driver.js')], toolchain: process.execPath },
  { name: 'python', command: PYTHON, args: [fromRoot('clients/python/tests/conformance_driver.py')], toolchain: PYTHON },
  { name: 'go', command: 'go', args: ['run', './cmd/conformance-driver'], cwd: fromRoot('clients/go'), toolchain: 'go' },
  { name: 'java', command: 'sh', args: [fromRoot('clients/java/conformance-driver.sh')], toolchain: 'javac' },
];
