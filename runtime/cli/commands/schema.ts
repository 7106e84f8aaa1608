import type { CommandDefinition } from '@vigil/plugin-sdk';
import type { Composition } from '../../composition.js';

/** `vigil schema`: the composed JSON Schema of the config file, for editor autocompletion. */
export const schemaCommand = (composition: Composition): CommandDefinition => ({
  name: 'schema',
  summary: 'Print the JSON Schema of the config file (core keys and every built-in plugin section)',
  usage: 'vigil schema',
  async run(_args, io) {
    const { fullSchema } = await import('../../plan.js');
    io.out(JSON.stringify(await fullSchema(composition), null, 2) + '\n');
    return 0;
  },
});
