// A local OTLP/HTTP receiver that does what Vigil's POST /v1/otlp/traces does with a body, with Vigil's modules:
// decode by content type, map to trace items, answer ExportTraceServiceResponse in the request's encoding. It
// keeps the items per request for the test to assert.
import type { TraceItem } from '../../../plugins/llm/trace-item.js';
import { decodeOtlpBody, encodeOtlpResponse, otlpEncodingOf } from '../../../plugins/llm/otlp/export-body.js';
import { mapOtlpRequest, partialSuccessOf } from '../../../plugins/llm/otlp/map-request.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedExport } from './otlp-receiver.js';

export interface MappedExport {
  export: ReceivedExport;
  items: TraceItem[];
  skipped: number;
  rejected: number;
}

export interface VigilOtlpReceiver extends OtlpReceiver {
  mapped: MappedExport[];
  items(): TraceItem[];
}

export async function startVigilOtlpReceiver(): Promise<VigilOtlpReceiver> {
  const mapped: MappedExport[] = [];
  const receiver = await startOtlpReceiver((exp) => {
    const encoding = otlpEncodingOf(exp.contentType);
    if (!encoding) return { status: 415, contentType: 'application/json', body: '{"error":"unsupported media type"}' };
    try {
      const result = mapOtlpRequest(decodeOtlpBody(exp.contentType, exp.body));
      mapped.push({ export: exp, items: result.items, skipped: result.skipped, rejected: result.rejected.length });
      const response = encodeOtlpResponse(encoding, partialSuccessOf(result.rejected));
      return { status: 200, ...response };
    } catch (err) {
      return { status: 400, contentType: 'application/json', body: JSON.stringify({ error: (err as Error).message }) };
    }
  });
  return { ...receiver, mapped, items: () => mapped.flatMap((m) => m.items) };
}
