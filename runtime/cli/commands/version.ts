import type { CommandDefinition } from '@vigil/plugin-sdk';
import { VERSION } from '../../version.js';

export const versionCommand: CommandDefinition = {
  name: 'version',
  summary: 'Print the version',
  usage: 'vigil version',
  run(_args, io) {
    io.out(`vigil ${VERSION} (node ${process.version})\n`);
    return 0;
  },
};
