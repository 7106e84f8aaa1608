import { HttpError, VigilError, type CommandArgs, type CommandIo, type CommandStore } from '@vigil/plugin-sdk';
import { llmMigrations } from './migrations.js';
import { ProjectStore } from './project-store.js';
import { graceMs } from './grace-period.js';
import { table } from './text-table.js';
import type { LlmConfig } from './types.js';

const USAGE = 'usage: vigil project create|list|rotate-key|delete [NAME] -config FILE [--grace DURATION]';

/**
 * `vigil project …` on the store the config file names (the one `vigil run -config FILE` uses). The file's
 * `llm.projects` are synced first, as `vigil run` does at start, so the file wins here too.
 */
export async function runProjectCommand(args: CommandArgs, io: CommandIo): Promise<number> {
  const [action, name, ...extra] = args.positionals;
  const file = args.flags.config;
  if (typeof file !== 'string') { io.err(`vigil project: -config FILE is required\n${USAGE}\n`); return 2; }
  const needsName = action === 'create' || action === 'rotate-key' || action === 'delete';
  if (!['create', 'list', 'rotate-key', 'delete'].includes(action ?? '') || (needsName && !name) || (!needsName && name) || extra.length) {
    io.err(`vigil project: ${action ? `cannot read "${args.positionals.join(' ')}"` : 'which action?'}\n${USAGE}\n`);
    return 2;
  }
  if (args.flags.grace !== undefined && action !== 'rotate-key') { io.err(`vigil project: --grace is for rotate-key\n${USAGE}\n`); return 2; }

  let opened: CommandStore;
  try {
    opened = await io.openStore(file, 'llm');
  } catch (err) {
    const described = io.config.describe(err);
    if (described) { io.err(described); return 2; }
    io.err(`vigil project: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    const config = opened.config as LlmConfig | undefined;
    if (!config) {
      io.err(`vigil project: ${opened.file} has no llm section; add "llm: {}" to enable the LLM platform\n`);
      return 2;
    }
    await opened.store.migrate(llmMigrations);
    const projects = new ProjectStore(opened.store);
    await projects.syncConfig(config.projects);
    switch (action) {
      case 'create': {
        const { key } = await projects.create(name);
        io.out(`Created project "${name}". Its key, shown this once (only its SHA-256 is kept):\n${key}\n`);
        return 0;
      }
      case 'rotate-key': {
        const { key, previousExpireAt } = await projects.rotateKey(name, graceMs(args.flags.grace));
        const until = previousExpireAt <= Date.now() ? 'stop working now' : `keep working until ${new Date(previousExpireAt).toISOString()}`;
        io.out(`New key for project "${name}" (its previous keys ${until}; a running vigil notices within 1 s), shown this once:\n${key}\n`);
        return 0;
      }
      case 'delete': {
        const { traces } = await projects.delete(name);
        io.out(`Deleted project "${name}", its keys and ${traces} traces.\n`);
        return 0;
      }
      default: {
        const rows = await projects.list();
        if (args.flags.json) {
          io.out(`${JSON.stringify(rows.map((r) => ({ name: r.name, source: r.source, settings: r.settings, keys: r.keys, created_at: r.created_at })), null, 2)}\n`);
          return 0;
        }
        if (!rows.length) { io.out('No projects. Create one with: vigil project create NAME -config FILE\n'); return 0; }
        const lines = rows.map((r) => [
          r.name, r.source === 'config' ? 'config file' : 'store',
          r.keys.map((k) => (k.expires_at === null ? k.hint : `${k.hint} (until ${new Date(k.expires_at).toISOString()})`)).join(', ') || '(no key)',
          new Date(r.created_at).toISOString().slice(0, 10),
        ]);
        io.out(table(['NAME', 'FROM', 'KEYS', 'CREATED'], lines));
        return 0;
      }
    }
  } catch (err) {
    if (err instanceof HttpError || err instanceof VigilError) { io.err(`vigil project: ${err.message}\n`); return 1; }
    throw err;
  } finally {
    await opened.close();
  }
}
