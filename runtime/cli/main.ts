import type { CommandDefinition, CommandIo } from '@vigil/plugin-sdk';
import type { Composition } from '../composition.js';
import { commandStoreOpener } from './command-store.js';
import { configFiles } from './config-files.js';
import { parseArgs, UsageError } from './parse-args.js';
import { runCommand } from './commands/run.js';
import { validateCommand } from './commands/validate.js';
import { schemaCommand } from './commands/schema.js';
import { versionCommand } from './commands/version.js';
import { tokenCommand } from './commands/token.js';

/** The core's commands and those of the composition's parts that are not plugins: none of them loads a plugin. */
function directCommands(composition: Composition): CommandDefinition[] {
  return [runCommand(composition), validateCommand(composition), schemaCommand(composition), versionCommand, tokenCommand(composition), ...composition.commands ?? []];
}

/** Every command: the core's, then those of built-in plugins and other parts, each living beside its owner. */
async function allCommands(composition: Composition): Promise<CommandDefinition[]> {
  const fromPlugins = (await composition.builtins()).flatMap((p) => p.commands ?? []);
  const direct = directCommands(composition);
  return [...direct.slice(0, 5), ...fromPlugins, ...direct.slice(5)];
}

function helpText(commands: readonly CommandDefinition[]): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  return [
    'Usage: vigil <command> [flags]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    `  ${'help'.padEnd(width)}  Show this help, or a command's usage: vigil help <command>`,
    '',
    'Flags take one or two dashes: -config FILE, --config FILE, --config=FILE.',
    '',
  ].join('\n');
}

function commandHelp(c: CommandDefinition): string {
  const flags = Object.entries(c.flags ?? {}).map(([n, f]) => `  -${n}${f.type === 'string' ? ' VALUE' : ''}${f.repeatable ? ' (repeatable)' : ''}  ${f.summary}`);
  return [`Usage: ${c.usage}`, '', c.summary, ...(flags.length ? ['', 'Flags:', ...flags] : []), ''].join('\n');
}

/** Runs one command line and resolves to the exit code. An unknown command or flag prints help and gives 2. */
export async function main(argv: readonly string[], composition: Composition, io: CommandIo = defaultIo(composition)): Promise<number> {
  const [given, ...rest] = argv;
  // `vigil --version` and `-v`, as most tools take them.
  const name = given === '--version' || given === '-v' || given === '-V' ? 'version' : given;
  // Core and sandbox commands dispatch without importing the built-in plugins (`vigil fn run` must start fast).
  const direct = directCommands(composition).find((c) => c.name === name);
  const commands = direct ? [direct] : await allCommands(composition);
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const target = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    if (name === 'help' && rest[0] && !target) {
      io.err(`vigil: unknown command "${rest[0]}"\n\n${helpText(commands)}`);
      return 2;
    }
    io.out(target ? commandHelp(target) : helpText(commands));
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`vigil: unknown command "${name}"\n\n${helpText(commands)}`);
    return 2;
  }
  let args;
  try {
    args = parseArgs(rest, command.flags);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`vigil ${name}: ${err.message}\n\n${commandHelp(command)}`);
    return 2;
  }
  return command.run(args, io);
}

function defaultIo(composition: Composition): CommandIo {
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    env: process.env,
    config: configFiles(process.cwd(), process.env),
    openStore: commandStoreOpener(composition, process.cwd(), process.env),
  };
}
