export { openStore, parseStoreUrl, storeForThreads, type ThreadStore } from './open-store.js';
export { ThreadWriteLock } from './thread-write-lock.js';
export type { StoreBackend, TxConnection } from './types.js';
export { StoreError, StoreQueryError, StoreErrorCode } from './errors.js';
export { pluginTableName } from './plugin-store.js';
