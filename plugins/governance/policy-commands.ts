// `vigil policy build` and `vigil policy test`. The CLI dispatches on one word, so both live under the `policy`
// command (createPolicyCommand); policyBuildCommand and createPolicyTestCommand are the two halves.
import { stat } from 'node:fs/promises';
import { relative, resolve, isAbsolute } from 'node:path';
import type { CommandArgs, CommandDefinition, CommandIo } from '@vigil/plugin-sdk';
import { buildPolicy } from '../../sandbox/wasm/build-policy.js';
import { WasmBuildError, WasmModuleError } from '../../sandbox/wasm/errors.js';
import { DEFAULT_MAX_MEMORY_PAGES } from '../../sandbox/wasm/sandbox.js';
import { createWasmPolicy } from '../../policies/wasm-policy.js';
import { runPolicyCases, type PolicyCaseInput, type PolicyCaseRunner } from './policy-test-runner.js';

export type { DecideViews, PolicyCaseInput, PolicyCaseRunner } from './policy-test-runner.js';

const BUILD_USAGE = 'vigil policy build FILE.ts [-o OUT.wasm] [-max-memory-pages N]';
const TEST_USAGE = 'vigil policy test -config policy.yaml [-wasm POLICY.wasm] CASES.yaml [MORE_CASES.yaml …]';

function display(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

function pagesFlag(args: CommandArgs, io: CommandIo, command: string): number | undefined | null {
  const raw = args.flags['max-memory-pages'];
  if (raw === undefined) return undefined;
  const pages = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(pages) || pages < 1 || pages > 65_536) {
    io.err(`vigil policy ${command}: -max-memory-pages takes a whole number of 64 KiB pages from 1 to 65536, got ${String(raw)}\n`);
    return null;
  }
  return pages;
}

const pagesSpec = {
  type: 'string' as const,
  summary: `guest memory cap in 64 KiB pages (default ${DEFAULT_MAX_MEMORY_PAGES}, i.e. 16 MiB)`,
};

/** `policy build`: compiles an AssemblyScript policy with asc (memory capped) and checks it against the ABI. */
export const policyBuildCommand: CommandDefinition = {
  name: 'policy build',
  summary: 'Compile an AssemblyScript policy to a WASM module for a rule\'s `wasm:` key',
  usage: BUILD_USAGE,
  flags: {
    o: { type: 'string', summary: 'output file (default: FILE.wasm next to FILE.ts)' },
    out: { type: 'string', summary: 'same as -o' },
    'max-memory-pages': pagesSpec,
  },
  async run(args, io) {
    if (args.positionals.length !== 1) {
      io.err(`vigil policy build: name one policy source file\n\nUsage: ${BUILD_USAGE}\n`);
      return 2;
    }
    const pages = pagesFlag(args, io, 'build');
    if (pages === null) return 2;
    const out = args.flags.o ?? args.flags.out;
    const source = resolve(io.cwd, args.positionals[0]);
    try {
      const file = await buildPolicy(source, {
        outFile: typeof out === 'string' ? resolve(io.cwd, out) : undefined,
        maxMemoryPages: pages,
      });
      const { size } = await stat(file);
      io.out(`built ${display(file, io.cwd)} (${size} bytes, memory capped at ${pages ?? DEFAULT_MAX_MEMORY_PAGES} pages)\n`);
      return 0;
    } catch (err) {
      if (!(err instanceof WasmBuildError)) throw err;
      io.err(`vigil policy build: ${err.message.split(source).join(display(source, io.cwd))}\n`);
      return 1;
    }
  },
};

/** `policy test`; `runCases` is the real runner unless a test puts another in its place. */
export function createPolicyTestCommand(runCases: PolicyCaseRunner = runPolicyCases): CommandDefinition {
  return {
    name: 'policy test',
    summary: 'Run `vigil test` cases with a WASM policy applied on top of the YAML policy (offline)',
    usage: TEST_USAGE,
    flags: {
      config: { type: 'string', summary: 'the policy file (service + rules)' },
      wasm: { type: 'string', summary: 'a WASM policy module applied to every case, in place of those the rules name' },
      'max-memory-pages': pagesSpec,
      'timeout-ms': { type: 'string', summary: 'wall-clock limit per guest call (default 1000 here)' },
    },
    async run(args, io) {
      const config = args.flags.config;
      const wasm = args.flags.wasm;
      if (typeof config !== 'string' || (wasm !== undefined && typeof wasm !== 'string') || args.positionals.length === 0) {
        const missing = typeof config !== 'string' ? '-config FILE is required'
          : typeof wasm !== 'string' && wasm !== undefined ? '-wasm takes a FILE' : 'name at least one cases file';
        io.err(`vigil policy test: ${missing}\n\nUsage: ${TEST_USAGE}\n`);
        return 2;
      }
      const pages = pagesFlag(args, io, 'test');
      if (pages === null) return 2;
      const timeout = args.flags['timeout-ms'] === undefined ? 1000 : Number(args.flags['timeout-ms']);
      if (!(timeout > 0)) {
        io.err(`vigil policy test: -timeout-ms takes a positive number of milliseconds, got ${String(args.flags['timeout-ms'])}\n`);
        return 2;
      }
      const input: PolicyCaseInput = {
        config: resolve(io.cwd, config),
        cases: args.positionals.map((f) => resolve(io.cwd, f)),
        io,
        limits: { maxMemoryPages: pages, callTimeoutMs: timeout },
      };
      if (wasm === undefined) return runCases(input, undefined);
      let policy;
      try {
        // Offline and one case at a time: a generous limit, so a slow machine does not fail a correct policy.
        policy = await createWasmPolicy({ module: resolve(io.cwd, wasm), maxMemoryPages: pages, callTimeoutMs: timeout });
      } catch (err) {
        if (!(err instanceof WasmModuleError)) throw err;
        io.err(`vigil policy test: ${err.message}\n`);
        return 2;
      }
      try {
        return await runCases(input, (views) => policy.decide(views));
      } finally {
        await policy.close();
      }
    },
  };
}

/** `vigil policy build|test …`: the one-word command the CLI dispatches, routing to the two halves. */
export function createPolicyCommand(runCases: PolicyCaseRunner = runPolicyCases): CommandDefinition {
  const sub: Record<string, CommandDefinition> = { build: policyBuildCommand, test: createPolicyTestCommand(runCases) };
  return {
    name: 'policy',
    summary: 'WASM governance policies: `policy build FILE.ts`, `policy test -config … [-wasm …] CASES.yaml`',
    usage: `${BUILD_USAGE}\n       ${TEST_USAGE}`,
    flags: { ...policyBuildCommand.flags, ...sub.test.flags },
    async run(args, io) {
      const [which, ...rest] = args.positionals;
      const command = which === undefined ? undefined : sub[which];
      if (!command) {
        io.err(`vigil policy: ${which === undefined ? 'name a subcommand' : `unknown subcommand "${which}"`} (build or test)\n\nUsage: ${BUILD_USAGE}\n       ${TEST_USAGE}\n`);
        return 2;
      }
      const allowed = new Set(Object.keys(command.flags ?? {}));
      const stray = Object.keys(args.flags).find((f) => !allowed.has(f));
      if (stray) {
        io.err(`vigil policy ${which}: unknown flag -${stray}\n\nUsage: ${command.usage}\n`);
        return 2;
      }
      return command.run({ flags: args.flags, positionals: rest }, io);
    },
  };
}
