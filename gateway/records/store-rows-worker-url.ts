// Where the capture pool's task module is, resolved beside this file so that it is found in dist/ as in the sources.
export const STORE_ROWS_WORKER = new URL('./store-rows-worker.js', import.meta.url);
