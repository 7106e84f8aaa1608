/**
 * The request-target to send upstream: the client's target in origin form (`/path?query`), behind the upstream
 * URL's base path. An absolute-form target (`http://host/path`, as sent to a forward proxy) keeps only its path
 * and query. Null for the forms an origin server cannot take: asterisk form (`OPTIONS *`) and authority form.
 */
export function upstreamTarget(target: string, basePath: string): string | null {
  if (target.charCodeAt(0) === 47 /* / */) return basePath === '' ? target : basePath + target;
  const authority = /^https?:\/\/[^/?#]*/i.exec(target);
  if (authority === null) return null;
  const rest = target.slice(authority[0].length);
  return basePath + (rest.charCodeAt(0) === 47 ? rest : `/${rest}`);
}
