import { HttpError, VigilError } from '@vigil/plugin-sdk';

/** Stable codes of the ui plugin. */
export const UiErrorCode = {
  /** dist/ui is missing or incomplete: the web UI was never built (`npm run build`). */
  notBuilt: 'VIGIL_ERR_UI_NOT_BUILT',
  /** No built asset has that name (a page of an older build asks for a file this build no longer has). */
  assetNotFound: 'VIGIL_ERR_UI_ASSET_NOT_FOUND',
  /** `ui.max_streams` live streams are open already. */
  streamsFull: 'VIGIL_ERR_UI_STREAMS_FULL',
} as const;

export function notBuilt(dir: string, problem: string): VigilError {
  return new VigilError(UiErrorCode.notBuilt,
    `plugin ui: the web UI in ${dir} is not built (${problem}); run "npm run build" (npm install runs it), then start vigil again`);
}

export function assetNotFound(name: string): HttpError {
  return new HttpError(404, UiErrorCode.assetNotFound,
    `no asset named ${JSON.stringify(name)}; the dashboard was probably updated since this page loaded: reload it`);
}

export function streamsFull(max: number): HttpError {
  return new HttpError(503, UiErrorCode.streamsFull,
    `${max} live streams are open already (ui.max_streams); close a dashboard tab, or raise ui.max_streams`);
}
