import type { CommandDefinition } from '@vigil/plugin-sdk';
import type { Composition } from '../../composition.js';
import { reportStartupError } from '../report-error.js';

/** `vigil validate -config FILE`: everything `run` checks before it starts anything; exit 0 valid, 2 invalid. */
export const validateCommand = (composition: Composition): CommandDefinition => ({
  name: 'validate',
  summary: 'Check a config file and every plugin section it enables, without starting anything',
  usage: 'vigil validate -config FILE',
  flags: { config: { type: 'string', summary: 'the YAML config file' } },
  async run(args, io) {
    const file = args.flags.config ?? args.positionals[0];
    if (typeof file !== 'string') { io.err('vigil validate: -config FILE is required\n'); return 2; }
    try {
      const { planRuntime } = await import('../../plan.js');
      const plan = await planRuntime(file, { composition, env: io.env });
      io.out(`${plan.file}: valid (plugins: ${plan.entries.map((e) => e.def.name).join(', ') || 'none'})\n`);
      return 0;
    } catch (err) {
      const code = reportStartupError(err, io);
      return code === 1 ? 2 : code;
    }
  },
});
