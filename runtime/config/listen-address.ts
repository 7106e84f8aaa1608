// Listen addresses are parsed by the SDK, so the control plane, the proxy and plugins share one grammar.
export { parseListenAddress, tryParseListenAddress, type ListenAddress } from '@vigil/plugin-sdk';
