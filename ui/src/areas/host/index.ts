import type { Area } from '../types.js';

/**
 * The host monitor. Planned: its plugins arrive with a later issue, which adds its pages (and the home grid's
 * widgets) here, sets `status` to `available` and writes the final snippet.
 */
export const host: Area = {
  id: 'host',
  title: 'Host',
  icon: 'host',
  description:
    'The machine Vigil runs on: CPU, memory, disk and network history, processes and ports, a health score, alert ' +
    'rules with channels, a web terminal, and a fleet view of other instances.',
  requires: ['probes'],
  status: 'planned',
  enableSnippet: [
    'probes: {}                 # one sample a minute, hourly rollups kept about 120 days',
    'alerts: {}',
    'terminal: { enabled: false }',
  ].join('\n'),
  pages: [],
};
