export { openStore, parseStoreUrl, storeForThreads, type ThreadStore } from './open-store.js';
export { ThreadWriteLock } from './thread-write-lock.js';
export type { StoreBackend, TxConnection } from './types.js';
export { StoreError, StoreQueryError, StoreErrors } from './errors.js';
export { pluginTableName } from './plugin-store.js';
export { configuredStoreUrl } from './configured-url.js';
