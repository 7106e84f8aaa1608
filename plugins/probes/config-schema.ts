import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `probes:` section. `probes: {}` turns the host monitor on with the defaults. */
export interface ProbesConfig {
  /** Interval of the live sample streamed while a dashboard page watches the Host area. */
  live_interval: string | number;
  /** Where the host's /proc and /sys are found: `/`, or the host's root mounted into a container (`/host`). */
  root: string;
  /** Ask `nvidia-smi` (when it is on PATH) for NVIDIA GPUs, which the proprietary driver hides from sysfs. */
  nvidia_smi: boolean;
  /** Log files and watchers: the folders whose files may be read, and how often the watchers read new lines. */
  logs: { allow: string[]; watch_interval: string | number };
}

export const probesConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'The host monitor: live metrics of this machine, a minute sample kept 24 hours and hourly rollups kept 120 days.',
  properties: {
    live_interval: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '1s', formatMaximum: '60s', default: '2s',
      description: 'How often the live sample is taken and streamed while a dashboard page watches the Host area; nothing is taken while none does.',
    },
    root: {
      type: 'string', minLength: 1, maxLength: 4096, default: '/',
      description: 'The directory holding the host\'s proc/ and sys/: `/`, or where the host\'s root is mounted in a container (like node-exporter\'s --path.rootfs).',
    },
    logs: {
      type: 'object', additionalProperties: false, default: {},
      description: 'GET /api/logs and the log watchers.',
      properties: {
        allow: {
          type: 'array', items: { type: 'string', minLength: 1, maxLength: 4096 }, maxItems: 32, default: ['/var/log'],
          description: 'Folders whose files /api/logs and file watchers may read (symbolic links resolved first).',
        },
        watch_interval: {
          type: ['string', 'integer'], format: 'duration', formatMinimum: '1s', formatMaximum: '10m', default: '20s',
          description: 'How often the log watchers read new lines (perch: 20 s).',
        },
      },
    },
    nvidia_smi: {
      type: 'boolean', default: true,
      description: 'Ask nvidia-smi (only when it is on PATH, with a 2 s timeout) for NVIDIA GPUs while a page watches; false reads DRM sysfs only.',
    },
  },
};
