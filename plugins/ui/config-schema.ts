import type { JsonSchema } from '@vigil/plugin-sdk';

/** The `ui:` section. `ui: {}` turns the dashboard on with the defaults. */
export interface UiConfig {
  /** Interval of the live stream's keep-alive comment. */
  heartbeat: string | number;
  /** Most live streams open at once (each dashboard tab holds one while visible). */
  max_streams: number;
}

export const uiConfigSchema: JsonSchema = {
  type: 'object',
  description: 'The web dashboard on the control plane: pages, display settings, and the live stream.',
  properties: {
    heartbeat: {
      type: ['string', 'integer'], format: 'duration', formatMinimum: '1s', formatMaximum: '10m', default: '25s',
      description: 'How often the live stream sends a keep-alive comment, so proxies that close idle connections (often after 60 s) leave it open.',
    },
    max_streams: {
      type: 'integer', minimum: 1, maximum: 10000, default: 64,
      description: 'Most live streams open at once; a dashboard tab holds one while it is visible. Further tabs get 503 and retry.',
    },
  },
};
