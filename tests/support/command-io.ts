import type { CommandIo } from '@vigil/plugin-sdk';
import { configFiles } from '../../runtime/cli/config-files.js';

/** A CommandIo as `vigil` gives commands, with what they print kept for assertions. */
export function recordingIo(cwd: string, env: NodeJS.ProcessEnv = {}): { io: CommandIo; out(): string; err(): string } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { out: (t) => { out.push(t); }, err: (t) => { err.push(t); }, cwd, env, config: configFiles(cwd, env) };
  return { io, out: () => out.join(''), err: () => err.join('') };
}
