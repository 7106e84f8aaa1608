#!/usr/bin/env -S node --max-semi-space-size=64
// The `vigil` command. The TypeScript sources are transpiled to dist/ by `npm run build` (run on install).
// The shebang's V8 flag sizes the young generation for `vigil run` (runtime/cli/v8-flags.ts says why).
import('../dist/app/cli.js').then((m) => m.cli(process.argv.slice(2))).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(err?.stack ?? err); process.exit(1); },
);
