import type { PluginContext } from './context.js';
import type { JsonSchema } from './json-schema.js';
import type { Store } from './store.js';

/** What `setup` returns: the plugin's lifecycle. Both hooks are optional. */
export interface PluginInstance {
  /** Begin work (listen, subscribe, schedule). Called downstream-first, after every plugin's setup. */
  start?(): void | Promise<void>;
  /** Drain and release. Called upstream-first. The host calls it at most once, and also for a plugin whose start never ran. */
  stop?(): void | Promise<void>;
  /**
   * Take a changed config section while running (`vigil run` reloads its file on SIGHUP). `config` has passed the
   * plugin's schema and `checkConfig`. Apply all of it, or throw, having changed nothing, with a message that says
   * what needs a restart instead. Without this method, any change to the plugin's section needs a restart.
   */
  reload?(config: unknown): void | Promise<void>;
}

/** A command-line command owned by a plugin: `vigil <name> …`. Commands run without starting the runtime. */
export interface CommandDefinition {
  name: string;
  /** One line for `vigil help`. */
  summary: string;
  /** Usage text printed by `vigil help <name>` and on a usage error. */
  usage: string;
  /**
   * Flags the command accepts (without dashes); `-flag` and `--flag` are both accepted. Boolean flags take no value.
   * A `repeatable` string flag may be given several times: `args.lists` holds every value in order (`flags`, the last).
   */
  flags?: Record<string, { type: 'string' | 'boolean'; summary: string; repeatable?: boolean }>;
  /** Returns the process exit code. Write to `io.out` / `io.err`, never to the console directly. */
  run(args: CommandArgs, io: CommandIo): Promise<number> | number;
}

export interface CommandArgs {
  flags: Record<string, string | boolean>;
  positionals: string[];
  /** Every value of each repeatable flag given, in order (absent when none was). */
  lists?: Record<string, string[]>;
}

export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** YAML files read the way `vigil run` reads its config, for commands that take files of their own. */
  config: ConfigFiles;
  /**
   * The store `vigil run -config file` uses (its `storage.url`, else SQLite in its `data_dir`), as `plugin` sees it
   * (its tables, its migrations), with the plugin's section of that file: for commands that manage a plugin's data
   * (`vigil project create`). The file is validated as `vigil run` validates it; an invalid one throws a config error
   * (`config.describe` prints it). Close the handle when done.
   */
  openStore(file: string, plugin: string): Promise<CommandStore>;
}

/** What `CommandIo.openStore` gives a command. */
export interface CommandStore {
  readonly store: Store;
  /** The plugin's section of the file, validated and with defaults; undefined when the file does not enable the plugin. */
  readonly config: unknown;
  /** Absolute path of the config file, for messages. */
  readonly file: string;
  close(): Promise<void>;
}

/** Reads YAML files as the runtime reads its config file: `${ENV}` interpolation, strict schemas, places in the file. */
export interface ConfigFiles {
  /** Loads and interpolates `file` (absolute, or relative to `cwd`). Throws a config error (see `describe`). */
  load(file: string): ConfigDocument;
  /**
   * Loads YAML text that is not a file on disk (a file at a git revision, `main:vigil.yaml`): `name` stands for the
   * file in problems and as `ConfigDocument.file`, and is shown as it is.
   */
  loadText(text: string, name: string): ConfigDocument;
  /**
   * The text `vigil validate` prints for a config error (`file:line:column: problem`, one line per problem, paths
   * relative to `cwd`); undefined when `err` is not a config error.
   */
  describe(err: unknown): string | undefined;
}

/** A loaded YAML document that knows where each key path is written. Key paths are arrays: `['cases', 2, 'name']`. */
export interface ConfigDocument {
  /** Absolute path of the file (or the name given to `loadText`). */
  readonly file: string;
  /** The top-level mapping. `validate` fills schema defaults into it in place. */
  readonly data: Record<string, unknown>;
  /**
   * Validates `value`, found at `keyPath`, against `schema`, strictly (an unknown key is a problem). Throws a config
   * error holding every problem, each with its line, column and key path.
   */
  validate(keyPath: readonly (string | number)[], schema: JsonSchema, value: unknown): void;
  /** Where `keyPath` is written (its key, or else its value), 1-based; undefined when it is not in the file. */
  locate(keyPath: readonly (string | number)[]): { line: number; column: number } | undefined;
}

/** What `checkConfig` may use besides the config itself. */
export interface ConfigCheckContext {
  /** A path from the config resolved against the config file's directory, as `ctx.resolvePath` will in setup. */
  resolvePath(path: string): string;
}

export interface PluginDefinition<Config = unknown> {
  /** Unique, kebab-case. Metrics and tables of the plugin are namespaced with it. */
  name: string;
  version: string;
  /**
   * JSON Schema of the plugin's config. Validated strictly: `additionalProperties: false` is added to every
   * object schema that does not say otherwise, so an unknown key anywhere is an error.
   */
  configSchema?: JsonSchema;
  /**
   * Built-in plugins only: the top-level config keys this plugin owns (default: `[name]`). With one key the plugin
   * receives that key's value as its config; with several it receives an object holding them.
   * A built-in plugin is enabled when one of its keys is present or another enabled plugin needs it.
   */
  configKeys?: string[];
  /**
   * What must exist before `setup`: core services (`store`, `http`, `jobs`, `workers`, `sandbox`) and services
   * that other plugins provide. A plugin that provides a service needed here starts first and stops last.
   */
  needs?: string[];
  /** Services used when present; they order start-up like `needs` but may be absent. */
  optional?: string[];
  /** Services this plugin registers with `ctx.services.provide` during setup. */
  provides?: string[];
  /**
   * Checks beyond the schema, run by `vigil validate` and before anything starts (compile patterns, cross-field
   * rules, files the config names). Throw `ConfigValueError` with the key path; it is reported with file and line,
   * and the exit code is 2.
   */
  checkConfig?(config: Config, check?: ConfigCheckContext): void;
  /**
   * Files the section reads besides the config file (a rule's WASM module, say), as paths resolved with
   * `check.resolvePath`. `vigil run` fingerprints their content: on a reload (SIGHUP) a file that changed counts as a
   * changed section, so `reload` gets the section again even when its text is the same.
   */
  configFiles?(config: Config, check: ConfigCheckContext): string[];
  /** Commands this plugin adds to the CLI. */
  commands?: CommandDefinition[];
  setup(ctx: PluginContext, config: Config): PluginInstance | void | Promise<PluginInstance | void>;
}

/** Declares a plugin. The identity function, there for types and for a stable place to validate shape. */
export function definePlugin<Config = unknown>(definition: PluginDefinition<Config>): PluginDefinition<Config> {
  if (!definition || typeof definition.name !== 'string' || !/^[a-z][a-z0-9-]*$/.test(definition.name)) {
    throw new TypeError(`definePlugin: name must be kebab-case, got ${JSON.stringify(definition?.name)}`);
  }
  if (typeof definition.setup !== 'function') {
    throw new TypeError(`definePlugin(${definition.name}): setup must be a function`);
  }
  return definition;
}
