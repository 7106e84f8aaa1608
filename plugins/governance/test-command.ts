import { resolve } from 'node:path';
import type { CommandDefinition, CommandIo, ConfigDocument } from '@vigil/plugin-sdk';
import { compilePolicy, type CompiledPolicy } from '../../policies/compile.js';
import { governExchange } from '../../gateway/govern/govern.js';
import { governCase, type CaseNarrower } from './govern-case.js';
import { compileLoadedPolicy, display, InputProblem, where } from './policy-file.js';
import { caseExchange } from './test-case-exchange.js';
import { checkExpectations, type CaseFailure } from './test-case-expect.js';
import { casesFileSchema, type CasesFile, type TestCase } from './test-cases-schema.js';

const USAGE = 'vigil test -config policy.yaml CASES.yaml [MORE_CASES.yaml …]';

export { display, InputProblem } from './policy-file.js';

function loadPolicy(file: string, io: CommandIo): CompiledPolicy {
  return compileLoadedPolicy(io.config.load(file), io);
}

/** Where a case (or sample request) gives its body in more than one form; `list` is its key (`cases`, `requests`). */
export function bodyFormProblems(loaded: ConfigDocument, list: string, items: readonly Pick<TestCase, 'request' | 'response'>[], cwd: string): string[] {
  const problems: string[] = [];
  items.forEach((c, i) => {
    for (const part of ['request', 'response'] as const) {
      const message = c[part];
      if (!message) continue;
      const forms = (['body', 'raw', 'base64'] as const).filter((k) => message[k] !== undefined);
      if (forms.length > 1) {
        problems.push(`${where(loaded, `${list}[${i}].${part}`, cwd)}: ${list}[${i}].${part} has ${forms.join(' and ')}; give the body one way only`);
      }
    }
  });
  return problems;
}

function loadCases(file: string, io: CommandIo): { loaded: ConfigDocument; cases: TestCase[] } {
  const loaded = io.config.load(file);
  loaded.validate([], casesFileSchema, loaded.data);
  const cases = (loaded.data as unknown as CasesFile).cases;
  const problems = bodyFormProblems(loaded, 'cases', cases, io.cwd);
  if (problems.length > 0) throw new InputProblem(problems.join('\n'));
  return { loaded, cases };
}

function formatFailures(failures: readonly CaseFailure[]): string {
  return failures.map((f) => `      ${f.what}\n        expected: ${f.expected}\n        actual:   ${f.actual}\n`).join('');
}

export interface TestCasesInput {
  /** Absolute path of the policy file. */
  config: string;
  /** Absolute paths of the cases files. */
  cases: string[];
  io: CommandIo;
}

/**
 * Runs the cases files against the policy file through the same decide and govern code as the proxy and the
 * workers; with `narrowing`, each case's decision is first narrowed by what it returns for the compiled policy
 * (it may throw an InputProblem). Resolves with the exit code: 0 all passed, 1 a case failed, 2 bad input.
 */
export async function runTestCases(
  input: TestCasesInput,
  narrowing?: (policy: CompiledPolicy) => Promise<CaseNarrower>,
): Promise<number> {
  const { io } = input;
  let policy: CompiledPolicy;
  let narrow: CaseNarrower | undefined;
  const suites: { loaded: ConfigDocument; cases: TestCase[] }[] = [];
  try {
    policy = loadPolicy(input.config, io);
    for (const file of input.cases) suites.push(loadCases(file, io));
    narrow = narrowing ? await narrowing(policy) : undefined;
  } catch (err) {
    const problem = err instanceof InputProblem ? err.message : io.config.describe(err);
    if (problem === undefined) throw err;
    io.err(`${problem}\n`);
    return 2;
  }

  // The same exchange governed with no rule at all: what the client actually sent, for "kept" comparisons.
  const open = compilePolicy({ rules: [] });
  let passed = 0;
  let failed = 0;
  let n = 0;
  for (const { loaded, cases } of suites) {
    io.out(`${display(loaded.file, io.cwd)}\n`);
    for (const [i, testCase] of cases.entries()) {
      const id = `case-${++n}`;
      const { record, errors } = await governCase(testCase, policy, id, narrow);
      const input = caseExchange(testCase, open, id);
      const inputRecord = governExchange(input.exchange, input.decision, { random: () => 0 });
      const failures = [
        ...errors.map((e) => ({ what: 'wasm policy', expected: 'a decision', actual: e })),
        ...checkExpectations(record, inputRecord, testCase.expect),
      ];
      if (failures.length === 0) {
        passed++;
        io.out(`  ok    ${testCase.name}\n`);
      } else {
        failed++;
        io.out(`  FAIL  ${testCase.name}  (${where(loaded, `cases[${i}]`, io.cwd)})\n${formatFailures(failures)}`);
      }
    }
  }
  io.out(`\n${passed + failed} cases: ${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

/** `vigil test`: runs each case through the same decide and govern code as the proxy and the workers. Offline. */
export const testCommand: CommandDefinition = {
  name: 'test',
  summary: 'Check offline, with no server and no network, that a policy redacts what its cases say it should',
  usage: USAGE,
  flags: { config: { type: 'string', summary: 'the policy file (service + rules)' } },
  run(args, io) {
    const config = args.flags.config;
    if (typeof config !== 'string' || args.positionals.length === 0) {
      io.err(`vigil test: ${typeof config !== 'string' ? '-config FILE is required' : 'name at least one cases file'}\n\nUsage: ${USAGE}\n`);
      return 2;
    }
    return runTestCases({ config: resolve(io.cwd, config), cases: args.positionals.map((f) => resolve(io.cwd, f)), io });
  },
};
