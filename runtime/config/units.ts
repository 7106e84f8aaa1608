// Durations and byte sizes are parsed by the SDK, so plugins read their config with the same rules the validator
// applies (they cannot import runtime/).
export { parseDuration, tryParseDuration, parseByteSize, tryParseByteSize } from '@vigil/plugin-sdk';
