import { resolve } from 'node:path';
import type { CommandDefinition } from '@vigil/plugin-sdk';
import type { Composition } from '../../composition.js';
import { reportStartupError } from '../report-error.js';

/**
 * `vigil token reset -config FILE`: a new dashboard token for the data directory the file names, printed once with
 * the dashboard link; only its hash is kept. The way out of a lost token. A running Vigil keeps the old one until it
 * restarts, and that start ends every session the old token opened.
 */
export const tokenCommand = (composition: Composition): CommandDefinition => ({
  name: 'token',
  summary: 'Dashboard token: `token reset -config FILE` makes a new one (the way back in after a lost token)',
  usage: 'vigil token reset -config FILE',
  flags: { config: { type: 'string', summary: 'the config file whose data directory keeps the token\'s hash' } },
  async run(args, io) {
    const [verb] = args.positionals;
    if (verb !== 'reset') { io.err(`vigil token: say what to do: vigil token reset -config FILE${verb ? ` (not "${verb}")` : ''}\n`); return 2; }
    const file = args.flags.config;
    if (typeof file !== 'string') { io.err('vigil token reset: -config FILE is required: the config file you run Vigil with\n'); return 2; }
    let plan;
    try {
      const { planRuntime } = await import('../../plan.js');
      plan = await planRuntime(resolve(io.cwd, file), { composition, env: io.env });
    } catch (err) {
      return reportStartupError(err, io);
    }
    if (plan.core.control_plane.token !== undefined) {
      io.err(`vigil token reset: the dashboard token is set by control_plane.token in ${file} (often \${VIGIL_TOKEN}); change it there and restart Vigil\n`);
      return 2;
    }
    const { resetDashboardToken } = await import('../../http/dashboard-token.js');
    const dataDir = resolve(io.cwd, plan.core.data_dir);
    const token = await resetDashboardToken(dataDir);
    const listen = plan.core.control_plane.listen;
    io.out(`A new dashboard token is set; only its hash is kept in ${dataDir}.\n`
      + `Restart Vigil to use it (a running one keeps the old token until then, and that restart ends the old token's sessions).\n\n`
      + `Dashboard: http://${listen}/?token=${token}\n`);
    return 0;
  },
});
