import { isAbsolute, relative, resolve } from 'node:path';
import type { CommandDefinition, CommandIo, ConfigDocument } from '@vigil/plugin-sdk';
import { compilePolicy, type CompiledPolicy } from '../../policies/compile.js';
import { PolicyError } from '../../policies/errors.js';
import { rulesSchema, serviceSchema, type RuleConfig } from '../../policies/schema.js';
import { governExchange } from './govern.js';
import { governCase, type CaseNarrower } from './govern-case.js';
import { parseRecordPath } from './record-path.js';
import { caseExchange } from './test-case-exchange.js';
import { checkExpectations, type CaseFailure } from './test-case-expect.js';
import { casesFileSchema, type CasesFile, type TestCase } from './test-cases-schema.js';

const USAGE = 'vigil test -config policy.yaml CASES.yaml [MORE_CASES.yaml …]';

/** A problem with the files themselves (not a failed expectation): exit 2, like `vigil validate`. */
export class InputProblem extends Error {}

/** `file` relative to `cwd` when it is inside it, else as it is. */
export function display(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

function where(loaded: ConfigDocument, keyPath: string, cwd: string): string {
  const path = parseRecordPath(keyPath);
  const at = path ? loaded.locate(path) : undefined;
  return at ? `${display(loaded.file, cwd)}:${at.line}:${at.column}` : display(loaded.file, cwd);
}

function loadPolicy(file: string, io: CommandIo): CompiledPolicy {
  const loaded = io.config.load(file);
  if (loaded.data.rules === undefined) {
    throw new InputProblem(`${display(file, io.cwd)}: no "rules" key; a policy file lists its rules under "rules:"`);
  }
  // Only the policy's own keys are read here; `vigil validate` checks the other sections of a full config file.
  loaded.validate(['rules'], rulesSchema, loaded.data.rules);
  if (loaded.data.service !== undefined) loaded.validate(['service'], serviceSchema, loaded.data.service);
  try {
    return compilePolicy({ rules: loaded.data.rules as RuleConfig[] });
  } catch (err) {
    if (err instanceof PolicyError) throw new InputProblem(`${where(loaded, err.where, io.cwd)}: ${err.message}`);
    throw err;
  }
}

function loadCases(file: string, io: CommandIo): { loaded: ConfigDocument; cases: TestCase[] } {
  const loaded = io.config.load(file);
  loaded.validate([], casesFileSchema, loaded.data);
  const cases = (loaded.data as unknown as CasesFile).cases;
  const problems: string[] = [];
  cases.forEach((c, i) => {
    for (const part of ['request', 'response'] as const) {
      const message = c[part];
      if (!message) continue;
      const forms = (['body', 'raw', 'base64'] as const).filter((k) => message[k] !== undefined);
      if (forms.length > 1) {
        problems.push(`${where(loaded, `cases[${i}].${part}`, io.cwd)}: cases[${i}].${part} has ${forms.join(' and ')}; give the body one way only`);
      }
    }
  });
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
