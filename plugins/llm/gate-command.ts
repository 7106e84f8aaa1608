import type { CommandArgs, CommandIo } from '@vigil/plugin-sdk';

export async function runGateCommand(_args: CommandArgs, io: CommandIo): Promise<number> {
  io.err('vigil gate: not built yet\n');
  return 2;
}
