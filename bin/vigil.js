#!/usr/bin/env node
// The `vigil` command. The TypeScript sources are transpiled to dist/ by `npm run build` (run on install).
import('../dist/runtime/cli/process-entry.js').then((m) => m.cli(process.argv[1], process.argv.slice(2))).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(err?.stack ?? err); process.exit(1); },
);
