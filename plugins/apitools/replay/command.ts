import type { CommandDefinition } from '@vigil/plugin-sdk';
import { REPLAY_USAGE } from './replay-options.js';

/** `vigil replay`, described here and loaded when it runs, so listing commands stays cheap. */
export const replayCommand: CommandDefinition = {
  name: 'replay',
  summary: 'Re-issue captured requests against a staging target and diff the status codes (and JSON shapes) per route',
  usage: REPLAY_USAGE,
  flags: {
    config: { type: 'string', summary: 'replay the records stored by `vigil run -config FILE`' },
    target: { type: 'string', summary: 'the base URL to replay against (never the live upstream, unless --force)' },
    since: { type: 'string', summary: 'only records from the last DURATION (1d, 12h, 30m)' },
    limit: { type: 'string', summary: 'at most N records, newest first (default 1000)' },
    methods: { type: 'string', summary: 'methods to replay (default GET,HEAD,OPTIONS); others are skipped as unsafe_method' },
    rate: { type: 'string', summary: 'most requests per second (20/s), minute (600/m) or hour (default 10/s)' },
    concurrency: { type: 'string', summary: 'most requests in flight at once (default 4)' },
    diff: { type: 'string', summary: 'status (default), or shape: also the JSON shape of each response body' },
    'max-changed': { type: 'string', summary: 'changes allowed before exit 1: a count (0 by default) or a percentage (5%)' },
    timeout: { type: 'string', summary: 'deadline of each request (default 10s); past it the request is an error' },
    header: { type: 'string', repeatable: true, summary: "'Name: value' set on every request, replacing the stored one ('Name:' removes it)" },
    format: { type: 'string', summary: 'text (default), json or markdown' },
    force: { type: 'boolean', summary: 'replay even when the target is the live upstream (or the gateway itself)' },
  },
  run: async (args, io) => (await import('./replay-command.js')).runReplay(args, io),
};
