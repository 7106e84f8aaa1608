import type { CommandIo } from '@vigil/plugin-sdk';
import { commandStoreOpener } from '../../runtime/cli/command-store.js';
import { configFiles } from '../../runtime/cli/config-files.js';
import { vigil } from '../../app/composition.js';

/** A CommandIo as `vigil` gives commands, with what they print kept for assertions. */
export function recordingIo(cwd: string, env: NodeJS.ProcessEnv = {}): { io: CommandIo; out(): string; err(): string } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = {
    out: (t) => { out.push(t); }, err: (t) => { err.push(t); }, cwd, env,
    config: configFiles(cwd, env), openStore: commandStoreOpener(vigil, cwd, env),
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}
