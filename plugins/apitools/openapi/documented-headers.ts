// Which headers the document names. Most headers are the protocol's or a proxy's, the same on every route, and
// OpenAPI ignores `Accept`, `Content-Type` and `Authorization` as parameters. What stays: an API's own `x-` headers
// and the few standard ones whose meaning is the API's (idempotency, conditional requests, redirects, limits).

/** `x-` headers that proxies, tracers and load balancers add: not part of any API. */
const INFRASTRUCTURE = /^x-(forwarded-|real-ip$|request-id$|correlation-id$|amzn-|amz-cf-|b3-|cloud-trace-context$|envoy-|datadog-|vigil-|request-start$|powered-by$|cache$|served-by$|timer$|runtime$|frame-options$|content-type-options$|xss-protection$|dns-prefetch-control$|download-options$|permitted-cross-domain-policies$)/;

const REQUEST = new Set(['idempotency-key', 'if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since', 'prefer']);
const RESPONSE = new Set(['location', 'etag', 'retry-after', 'link', 'last-modified', 'preference-applied']);

const custom = (name: string) => name.startsWith('x-') && !INFRASTRUCTURE.test(name);

export function isDocumentedRequestHeader(name: string): boolean {
  const n = name.toLowerCase();
  return custom(n) || REQUEST.has(n);
}

export function isDocumentedResponseHeader(name: string): boolean {
  const n = name.toLowerCase();
  return custom(n) || RESPONSE.has(n);
}
