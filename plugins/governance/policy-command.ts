import type { CommandDefinition } from '@vigil/plugin-sdk';

/**
 * `vigil policy build|test`, described here and loaded when it runs: the command's module brings the WASM sandbox
 * host and Ajv (~70 ms), which no other command should pay for. Its name, usage and flags must stay those of
 * `createPolicyCommand` (policy-commands.ts); a unit test holds them equal.
 */
export const policyCommand: CommandDefinition = {
  name: 'policy',
  summary: 'WASM governance policies: `policy build FILE.ts`, `policy test -config … [-wasm …] CASES.yaml`',
  usage: 'vigil policy build FILE.ts [-o OUT.wasm] [-max-memory-pages N]\n' +
    '       vigil policy test -config policy.yaml [-wasm POLICY.wasm] CASES.yaml [MORE_CASES.yaml …]',
  flags: {
    o: { type: 'string', summary: 'output file (default: FILE.wasm next to FILE.ts)' },
    out: { type: 'string', summary: 'same as -o' },
    'max-memory-pages': { type: 'string', summary: 'guest memory cap in 64 KiB pages (default 256, i.e. 16 MiB)' },
    config: { type: 'string', summary: 'the policy file (service + rules)' },
    wasm: { type: 'string', summary: 'a WASM policy module applied to every case, in place of those the rules name' },
    'timeout-ms': { type: 'string', summary: 'wall-clock limit per guest call (default 1000 here)' },
  },
  async run(args, io) {
    const { createPolicyCommand } = await import('./policy-commands.js');
    return createPolicyCommand().run(args, io);
  },
};
