import type { CommandArgs, CommandDefinition } from '@vigil/plugin-sdk';

export class UsageError extends Error {}

/**
 * Parses `-flag value`, `--flag value`, `-flag=value` and boolean `-flag` forms against a command's declared flags.
 * A repeatable flag keeps every value in `lists`. `--` ends flag parsing. An unknown flag or a missing value is a UsageError (exit 2).
 */
export function parseArgs(argv: readonly string[], flags: CommandDefinition['flags'] = {}): CommandArgs {
  const out: CommandArgs = { flags: {}, positionals: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') { out.positionals.push(...argv.slice(i + 1)); break; }
    if (!arg.startsWith('-') || arg === '-') { out.positionals.push(arg); continue; }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const spec = flags[name];
    if (!spec) throw new UsageError(`unknown flag ${arg}`);
    if (spec.type === 'boolean') {
      if (eq >= 0) {
        const v = body.slice(eq + 1);
        if (v !== 'true' && v !== 'false') throw new UsageError(`flag -${name} takes true or false, got ${v}`);
        out.flags[name] = v === 'true';
      } else out.flags[name] = true;
      continue;
    }
    const value: string | undefined = eq >= 0 ? body.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`flag -${name} needs a value`);
    out.flags[name] = value;
    if (spec.repeatable) ((out.lists ??= {})[name] ??= []).push(value);
  }
  return out;
}
