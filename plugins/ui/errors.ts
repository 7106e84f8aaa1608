import { defineErrorCodes, HttpError, httpError, VigilError } from '@vigil/plugin-sdk';

/** Codes of the ui plugin. */
export const UiErrors = defineErrorCodes('UI', {
  NOT_BUILT: {
    meaning: 'dist/ui is missing or incomplete: the web UI was never built, so the ui plugin cannot start.',
    action: 'Run npm run build (npm install runs it), then start vigil again.',
  },
  ASSET_NOT_FOUND: {
    status: 404,
    meaning: 'No built asset has that name: a page of an older build asks for a file this build no longer has.',
    action: 'Reload the page in the browser.',
  },
  STREAMS_FULL: {
    status: 503,
    meaning: 'ui.max_streams live streams are open already, so another page cannot follow live data.',
    action: 'Close dashboard tabs you do not use, or raise ui.max_streams.',
  },
});

export function notBuilt(dir: string, problem: string): VigilError {
  return new VigilError(UiErrors.NOT_BUILT,
    `plugin ui: the web UI in ${dir} is not built (${problem}); run "npm run build" (npm install runs it), then start vigil again`);
}

export function assetNotFound(name: string): HttpError {
  return httpError(UiErrors.ASSET_NOT_FOUND,
    `no asset named ${JSON.stringify(name)}; the dashboard was probably updated since this page loaded: reload it`);
}

export function streamsFull(max: number): HttpError {
  return httpError(UiErrors.STREAMS_FULL,
    `${max} live streams are open already (ui.max_streams); close a dashboard tab, or raise ui.max_streams`);
}
