// A decoder for the few OTLP protobuf messages the tests read (ExportLogsServiceRequest and what it holds), written
// from the field numbers in opentelemetry-proto's logs.proto, common.proto and resource.proto. It reads the protobuf
// wire format directly: varint (0), fixed64 (1), length-delimited (2) and fixed32 (5).

type Field = { wire: number; value: bigint | Buffer };

function readVarint(buf: Buffer, at: { pos: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (at.pos >= buf.length) throw new Error('protobuf: truncated varint');
    const byte = buf[at.pos++];
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return result;
    shift += 7n;
  }
}

/** Every field of one message, by field number, in order. Throws on malformed input. */
export function fields(buf: Buffer): Map<number, Field[]> {
  const out = new Map<number, Field[]>();
  const at = { pos: 0 };
  while (at.pos < buf.length) {
    const tag = Number(readVarint(buf, at));
    const number = tag >>> 3;
    const wire = tag & 7;
    let value: bigint | Buffer;
    if (wire === 0) value = readVarint(buf, at);
    else if (wire === 1) { value = buf.readBigUInt64LE(at.pos); at.pos += 8; }
    else if (wire === 5) { value = BigInt(buf.readUInt32LE(at.pos)); at.pos += 4; }
    else if (wire === 2) {
      const len = Number(readVarint(buf, at));
      if (at.pos + len > buf.length) throw new Error('protobuf: length past the end');
      value = buf.subarray(at.pos, at.pos + len);
      at.pos += len;
    } else throw new Error(`protobuf: unsupported wire type ${wire}`);
    const list = out.get(number) ?? [];
    list.push({ wire, value });
    out.set(number, list);
  }
  return out;
}

const bytesOf = (f: Field | undefined): Buffer => (f?.value instanceof Buffer ? f.value : Buffer.alloc(0));
const text = (f: Field | undefined): string | undefined => (f ? bytesOf(f).toString('utf8') : undefined);

/** AnyValue: string 1, bool 2, int 3, double 4, array 5, kvlist 6, bytes 7. */
export function anyValue(buf: Buffer): unknown {
  const f = fields(buf);
  if (f.has(1)) return text(f.get(1)![0]);
  if (f.has(2)) return f.get(2)![0].value === 1n;
  if (f.has(3)) return Number(BigInt.asIntN(64, f.get(3)![0].value as bigint));
  if (f.has(4)) { const b = Buffer.alloc(8); b.writeBigUInt64LE(f.get(4)![0].value as bigint); return b.readDoubleLE(0); }
  if (f.has(5)) return (fields(bytesOf(f.get(5)![0])).get(1) ?? []).map((v) => anyValue(bytesOf(v)));
  if (f.has(6)) return keyValues(fields(bytesOf(f.get(6)![0])).get(1) ?? []);
  if (f.has(7)) return bytesOf(f.get(7)![0]);
  return undefined;
}

/** Repeated KeyValue (key 1, value 2) as a plain object. */
function keyValues(list: Field[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list) {
    const f = fields(bytesOf(kv));
    out[text(f.get(1)?.[0]) ?? ''] = f.has(2) ? anyValue(bytesOf(f.get(2)![0])) : undefined;
  }
  return out;
}

export interface DecodedLogRecord {
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  severityNumber: number;
  severityText?: string;
  body: unknown;
  attributes: Record<string, unknown>;
}

export interface DecodedLogsRequest {
  resourceLogs: {
    resourceAttributes: Record<string, unknown>;
    scopeLogs: { scopeName?: string; logRecords: DecodedLogRecord[] }[];
  }[];
}

/** ExportLogsServiceRequest: resource_logs 1 → ResourceLogs (resource 1, scope_logs 2) → ScopeLogs (scope 1, log_records 2). */
export function decodeLogsRequest(buf: Buffer): DecodedLogsRequest {
  return {
    resourceLogs: (fields(buf).get(1) ?? []).map((rl) => {
      const r = fields(bytesOf(rl));
      const resource = r.has(1) ? fields(bytesOf(r.get(1)![0])) : new Map<number, Field[]>();
      return {
        resourceAttributes: keyValues(resource.get(1) ?? []),
        scopeLogs: (r.get(2) ?? []).map((sl) => {
          const s = fields(bytesOf(sl));
          const scope = s.has(1) ? fields(bytesOf(s.get(1)![0])) : new Map<number, Field[]>();
          return { scopeName: text(scope.get(1)?.[0]), logRecords: (s.get(2) ?? []).map((lr) => logRecord(bytesOf(lr))) };
        }),
      };
    }),
  };
}

/** LogRecord: time 1 (fixed64), severity_number 2, severity_text 3, body 5, attributes 6, observed_time 11 (fixed64). */
function logRecord(buf: Buffer): DecodedLogRecord {
  const f = fields(buf);
  return {
    timeUnixNano: (f.get(1)?.[0].value as bigint | undefined) ?? 0n,
    observedTimeUnixNano: (f.get(11)?.[0].value as bigint | undefined) ?? 0n,
    severityNumber: Number((f.get(2)?.[0].value as bigint | undefined) ?? 0n),
    severityText: text(f.get(3)?.[0]),
    body: f.has(5) ? anyValue(bytesOf(f.get(5)![0])) : undefined,
    attributes: keyValues(f.get(6) ?? []),
  };
}
