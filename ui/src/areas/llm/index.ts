import type { Area } from '../types.js';

/**
 * LLM observability. Planned: its plugins arrive with a later issue, which adds its pages here, sets `status` to
 * `available` and writes the final snippet.
 */
export const llm: Area = {
  id: 'llm',
  title: 'LLM',
  icon: 'llm',
  description:
    'Traces of your application\'s LLM calls: prompt versions by content hash, evaluations, cost and latency per ' +
    'version, alerts on regressions, and a CI gate that compares a prompt version before it ships.',
  requires: ['llm'],
  status: 'planned',
  enableSnippet: [
    'llm:',
    '  projects:',
    '    - { name: my-app }      # its project key is printed on first start',
  ].join('\n'),
  pages: [],
};
