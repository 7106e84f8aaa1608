import { httpError, type HttpErrorCode, type RouteContext } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';
import { decodeContent } from './ingest-body.js';
import { OtlpDecodeError } from './otlp/decode-error.js';
import { otlpEncodingOf, type OtlpEncoding } from './otlp/export-body.js';
import { projectOf } from './project-auth.js';
import type { LlmProject } from './types.js';

/**
 * What the OTLP/HTTP routes (traces and logs) read alike: the project of the key, the encoding the Content-Type names
 * (415 otherwise), the body inflated within the project's body limit (413), and decoded by `decode`; a body that does
 * not decode is a 400 with `badBody`, the route's own code.
 */
export async function readOtlpRequest<T>(
  ctx: RouteContext,
  decode: (contentType: string | undefined, body: Uint8Array) => T,
  badBody: HttpErrorCode,
): Promise<{ project: LlmProject; encoding: OtlpEncoding; decoded: T }> {
  const project = projectOf(ctx);
  const contentType = ctx.headers['content-type'];
  const encoding = otlpEncodingOf(contentType);
  if (!encoding) {
    throw httpError(LlmErrors.CONTENT_TYPE, `OTLP/HTTP takes application/x-protobuf or application/json${contentType ? `, not ${JSON.stringify(contentType)}` : ''}`);
  }
  const body = await decodeContent(ctx.request.body as Buffer, ctx.headers['content-encoding'] as string | undefined, project.settings.bodyBytes);
  try {
    return { project, encoding, decoded: decode(contentType, body) };
  } catch (err) {
    if (err instanceof OtlpDecodeError) throw httpError(badBody, `${err.message} (${err.reason})`);
    throw err;
  }
}
