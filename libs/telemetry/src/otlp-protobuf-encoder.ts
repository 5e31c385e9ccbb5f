import type { Attributes, AttributeValue, HrTime } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';

/** Protobuf wire types. */
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

/** OTLP span flags: the low byte is the W3C trace flags; bit 8 says whether bit 9 (parent is remote) is known. */
const FLAGS_HAS_IS_REMOTE = 0x100;
const FLAGS_IS_REMOTE = 0x200;

const NANOS_PER_SECOND = 1_000_000_000;
const TWO_POW_32 = 0x1_0000_0000;
const INT64_MIN = -(2 ** 63);
const INT64_MAX_EXCLUSIVE = 2 ** 63;
/** Strings shorter than this are checked for ASCII and copied by hand. */
const SHORT_STRING = 128;

/**
 * A one-pass protobuf writer into a growing buffer. A length-delimited message reserves one byte
 * for its length and moves its content along in the rare case the length needs more, so nothing
 * is measured twice.
 */
class Writer {
  buffer: Buffer;
  position = 0;

  constructor(initialSize: number) {
    this.buffer = Buffer.allocUnsafe(initialSize);
  }

  private reserve(bytes: number): void {
    if (this.position + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.position + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.position);
    this.buffer = grown;
  }

  tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  varint(value: number): void {
    this.reserve(10);
    const buffer = this.buffer;
    if (value >= 0 && value <= 0xffff_ffff) {
      let v = value >>> 0;
      while (v > 0x7f) {
        buffer[this.position++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buffer[this.position++] = v;
      return;
    }
    // Beyond 32 bits (and negative numbers, as two's complement in 64 bits).
    const magnitude = Math.abs(value);
    let low = magnitude >>> 0;
    let high = Math.floor(magnitude / TWO_POW_32) >>> 0;
    if (value < 0) {
      low = ~low >>> 0;
      high = ~high >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 0x7f) {
      buffer[this.position++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buffer[this.position++] = low;
  }

  fixed32(value: number): void {
    this.reserve(4);
    this.littleEndian32(value);
  }

  fixed64(low: number, high: number): void {
    this.reserve(8);
    this.littleEndian32(low);
    this.littleEndian32(high);
  }

  private littleEndian32(value: number): void {
    const buffer = this.buffer;
    buffer[this.position++] = value & 0xff;
    buffer[this.position++] = (value >>> 8) & 0xff;
    buffer[this.position++] = (value >>> 16) & 0xff;
    buffer[this.position++] = (value >>> 24) & 0xff;
  }

  double(value: number): void {
    this.reserve(8);
    this.buffer.writeDoubleLE(value, this.position);
    this.position += 8;
  }

  /**
   * UTF-8, length first. Short ASCII strings (names, keys, ids, routes: nearly all) are copied here
   * in one pass, cheaper than a call into the runtime's encoder: the length (one byte below 128) is
   * written once the copy has found no other character; one that is not ASCII goes the runtime's way.
   */
  string(value: string): void {
    const length = value.length;
    if (length < SHORT_STRING) {
      this.reserve(length + 1);
      const buffer = this.buffer;
      const start = this.position;
      let at = start + 1;
      for (let index = 0; index < length; index += 1) {
        const code = value.charCodeAt(index);
        if (code > 0x7f) {
          at = -1;
          break;
        }
        buffer[at++] = code;
      }
      if (at >= 0) {
        buffer[start] = length;
        this.position = at;
        return;
      }
    }
    const bytes = Buffer.byteLength(value, 'utf8');
    this.varint(bytes);
    this.reserve(bytes);
    this.position += this.buffer.write(value, this.position, bytes, 'utf8');
  }

  /** Bytes written from their lowercase or uppercase hexadecimal form (trace and span ids, validated by the API). */
  hex(value: string): void {
    const length = value.length >>> 1;
    this.varint(length);
    this.reserve(length);
    this.position += this.buffer.write(value, this.position, length, 'hex');
  }

  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.raw(value);
  }

  /** Starts a length-delimited message; `end` with the answer writes its length. */
  begin(): number {
    this.reserve(1);
    return this.position++;
  }

  end(start: number): void {
    const length = this.position - start - 1;
    if (length < 0x80) {
      this.buffer[start] = length;
      return;
    }
    let extra = 0;
    for (let v = length >>> 7; v > 0x7f; v >>>= 7) extra += 1;
    extra += 1;
    this.reserve(extra);
    this.buffer.copyWithin(start + 1 + extra, start + 1, this.position);
    this.position += extra;
    let v = length;
    let at = start;
    while (v > 0x7f) {
      this.buffer[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buffer[at] = v;
  }

  /** Bytes already encoded (a scope's spans), as they are. */
  raw(value: Uint8Array): void {
    this.reserve(value.length);
    this.buffer.set(value, this.position);
    this.position += value.length;
  }

  finish(): Uint8Array {
    return this.buffer.subarray(0, this.position);
  }

  /** Forgets what was written after `position` (a position this writer had; 0 empties it), keeping its buffer. */
  rewind(position: number): void {
    this.position = position;
  }
}

/**
 * [seconds, nanoseconds] as a fixed64 count of nanoseconds. seconds × 10^9 exceeds 2^53, so the
 * seconds are split into their low 16 bits and the rest, each product exact, and recombined in
 * 32-bit halves with the carry (integer operations only: this runs twice a span).
 */
function writeTime(writer: Writer, time: HrTime): void {
  const seconds = time[0];
  const fromLowSeconds = (seconds & 0xffff) * NANOS_PER_SECOND;
  const fromHighSeconds = ((seconds / 0x10000) >>> 0) * NANOS_PER_SECOND;
  const low = (fromLowSeconds >>> 0) + (fromHighSeconds & 0xffff) * 0x10000 + time[1];
  const high = ((fromLowSeconds / TWO_POW_32) >>> 0) + ((fromHighSeconds / 0x10000) >>> 0) + ((low / TWO_POW_32) >>> 0);
  writer.fixed64(low >>> 0, high >>> 0);
}

function writeAnyValue(writer: Writer, value: unknown): void {
  switch (typeof value) {
    case 'string':
      writer.tag(1, LENGTH_DELIMITED);
      writer.string(value);
      return;
    case 'boolean':
      writer.tag(2, VARINT);
      writer.varint(value ? 1 : 0);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= INT64_MIN && value < INT64_MAX_EXCLUSIVE) {
        writer.tag(3, VARINT);
        writer.varint(value);
      } else {
        writer.tag(4, FIXED64);
        writer.double(value);
      }
      return;
    default:
      break;
  }
  if (value instanceof Uint8Array) {
    writer.tag(7, LENGTH_DELIMITED);
    writer.bytes(value);
  } else if (Array.isArray(value)) {
    writer.tag(5, LENGTH_DELIMITED);
    const array = writer.begin();
    for (const item of value) {
      writer.tag(1, LENGTH_DELIMITED);
      const entry = writer.begin();
      writeAnyValue(writer, item);
      writer.end(entry);
    }
    writer.end(array);
  } else if (typeof value === 'object' && value !== null) {
    writer.tag(6, LENGTH_DELIMITED);
    const list = writer.begin();
    writeKeyValues(writer, value as Record<string, unknown>, 1);
    writer.end(list);
  }
}

/** Attribute keys come from a few places in code: each one's field bytes, written once. */
const keyFields = new Map<string, Uint8Array>();
/** Past this many keys (attributes named from data) the rest are encoded each time. */
const KEY_FIELDS_KEPT = 512;

function writeKey(writer: Writer, key: string): void {
  let field = keyFields.get(key);
  if (!field) {
    const fresh = new Writer(key.length * 3 + 8);
    fresh.tag(1, LENGTH_DELIMITED);
    fresh.string(key);
    field = Uint8Array.from(fresh.finish());
    if (keyFields.size < KEY_FIELDS_KEPT) keyFields.set(key, field);
  }
  writer.raw(field);
}

function writeKeyValues(writer: Writer, attributes: Record<string, unknown> | Attributes, field: number): void {
  for (const key in attributes) {
    if (!Object.prototype.hasOwnProperty.call(attributes, key)) continue;
    writer.tag(field, LENGTH_DELIMITED);
    const keyValue = writer.begin();
    writeKey(writer, key);
    writer.tag(2, LENGTH_DELIMITED);
    const anyValue = writer.begin();
    writeAnyValue(writer, (attributes as Record<string, AttributeValue | undefined>)[key]);
    writer.end(anyValue);
    writer.end(keyValue);
  }
}

function spanFlags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | FLAGS_HAS_IS_REMOTE | (isRemote ? FLAGS_IS_REMOTE : 0);
}

function writeEvent(writer: Writer, event: TimedEvent): void {
  const start = writer.begin();
  writer.tag(1, FIXED64);
  writeTime(writer, event.time);
  writer.tag(2, LENGTH_DELIMITED);
  writer.string(event.name);
  if (event.attributes) writeKeyValues(writer, event.attributes, 3);
  writer.tag(4, VARINT);
  writer.varint(event.droppedAttributesCount ?? 0);
  writer.end(start);
}

function writeLink(writer: Writer, link: ReadableSpan['links'][number]): void {
  const start = writer.begin();
  const linked = link.context;
  writer.tag(1, LENGTH_DELIMITED);
  writer.hex(linked.traceId);
  writer.tag(2, LENGTH_DELIMITED);
  writer.hex(linked.spanId);
  const traceState = linked.traceState?.serialize();
  if (traceState) {
    writer.tag(3, LENGTH_DELIMITED);
    writer.string(traceState);
  }
  if (link.attributes) writeKeyValues(writer, link.attributes, 4);
  writer.tag(5, VARINT);
  writer.varint(link.droppedAttributesCount ?? 0);
  writer.tag(6, FIXED32);
  writer.fixed32(spanFlags(linked.traceFlags, linked.isRemote));
  writer.end(start);
}

function writeSpan(writer: Writer, span: ReadableSpan): void {
  const start = writer.begin();
  const spanContext = span.spanContext();
  writer.tag(1, LENGTH_DELIMITED);
  writer.hex(spanContext.traceId);
  writer.tag(2, LENGTH_DELIMITED);
  writer.hex(spanContext.spanId);
  const traceState = spanContext.traceState?.serialize();
  if (traceState) {
    writer.tag(3, LENGTH_DELIMITED);
    writer.string(traceState);
  }
  const parent = span.parentSpanContext;
  if (parent?.spanId) {
    writer.tag(4, LENGTH_DELIMITED);
    writer.hex(parent.spanId);
  }
  writer.tag(5, LENGTH_DELIMITED);
  writer.string(span.name);
  // OTLP's kinds start at 1 (0 is unspecified); the API's at 0.
  writer.tag(6, VARINT);
  writer.varint(span.kind + 1);
  writer.tag(7, FIXED64);
  writeTime(writer, span.startTime);
  writer.tag(8, FIXED64);
  writeTime(writer, span.endTime);
  writeKeyValues(writer, span.attributes, 9);
  writer.tag(10, VARINT);
  writer.varint(span.droppedAttributesCount);
  for (const event of span.events) {
    writer.tag(11, LENGTH_DELIMITED);
    writeEvent(writer, event);
  }
  writer.tag(12, VARINT);
  writer.varint(span.droppedEventsCount);
  for (const link of span.links) {
    writer.tag(13, LENGTH_DELIMITED);
    writeLink(writer, link);
  }
  writer.tag(14, VARINT);
  writer.varint(span.droppedLinksCount);
  writer.tag(15, LENGTH_DELIMITED);
  const status = writer.begin();
  if (span.status.message) {
    writer.tag(2, LENGTH_DELIMITED);
    writer.string(span.status.message);
  }
  writer.tag(3, VARINT);
  writer.varint(span.status.code);
  writer.end(status);
  writer.tag(16, FIXED32);
  writer.fixed32(spanFlags(spanContext.traceFlags, parent?.isRemote));
  writer.end(start);
}

/** The scope's own attributes are newer than this SDK's type: written when present, as the reference encoder does. */
type Scope = ReadableSpan['instrumentationScope'] & { attributes?: Attributes; droppedAttributesCount?: number };
type Resource = ReadableSpan['resource'];

function writeScope(writer: Writer, scope: Scope): void {
  writer.tag(1, LENGTH_DELIMITED);
  const start = writer.begin();
  writer.tag(1, LENGTH_DELIMITED);
  writer.string(scope.name);
  if (scope.version) {
    writer.tag(2, LENGTH_DELIMITED);
    writer.string(scope.version);
  }
  if (scope.attributes) writeKeyValues(writer, scope.attributes, 3);
  if (scope.droppedAttributesCount) {
    writer.tag(4, VARINT);
    writer.varint(scope.droppedAttributesCount);
  }
  writer.end(start);
}

function writeResource(writer: Writer, resource: Resource): void {
  writer.tag(1, LENGTH_DELIMITED);
  const start = writer.begin();
  writeKeyValues(writer, resource.attributes, 1);
  writer.tag(2, VARINT);
  writer.varint(0);
  writer.end(start);
}

/** One scope's spans of the batch, each already a `ScopeSpans.spans` field. */
interface ScopeBatch {
  readonly scope: Scope;
  readonly spans: Writer;
}

/**
 * An OTLP `ExportTraceServiceRequest` built a span at a time: each span is encoded when added (so
 * a batch holds bytes, not the span objects), grouped by resource and instrumentation scope in the
 * order first seen, and `take` writes the message around them: the bytes
 * @opentelemetry/otlp-transformer's encoder writes for the same spans, in one pass and several
 * times faster (that encoder measures the whole message first, through the same code).
 */
export class TraceBatchEncoder {
  private readonly resources = new Map<Resource, Map<Scope, ScopeBatch>>();
  private spans = 0;

  /** The spans added since the last take. */
  get spanCount(): number {
    return this.spans;
  }

  add(span: ReadableSpan): void {
    let scopes = this.resources.get(span.resource);
    if (!scopes) {
      scopes = new Map();
      this.resources.set(span.resource, scopes);
    }
    let batch = scopes.get(span.instrumentationScope);
    if (!batch) {
      // About 250 bytes a span here; a writer grows past its guess once and keeps its size.
      batch = { scope: span.instrumentationScope, spans: new Writer(4096) };
      scopes.set(span.instrumentationScope, batch);
    }
    const before = batch.spans.position;
    try {
      batch.spans.tag(2, LENGTH_DELIMITED);
      writeSpan(batch.spans, span);
    } catch (error) {
      // A span that cannot be encoded leaves nothing behind: the batch's other spans stay whole.
      batch.spans.rewind(before);
      throw error;
    }
    this.spans += 1;
  }

  /** The message of the spans added since the last take (empty for none); the encoder starts over. */
  take(): Uint8Array {
    let size = 0;
    for (const scopes of this.resources.values()) for (const batch of scopes.values()) size += batch.spans.position + 256;
    const writer = new Writer(Math.max(4096, size));
    for (const [resource, scopes] of this.resources) {
      const filled = [...scopes.values()].filter((batch) => batch.spans.position > 0);
      if (filled.length === 0) continue;
      writer.tag(1, LENGTH_DELIMITED);
      const resourceSpans = writer.begin();
      writeResource(writer, resource);
      for (const batch of filled) {
        writer.tag(2, LENGTH_DELIMITED);
        const scopeSpans = writer.begin();
        writeScope(writer, batch.scope);
        writer.raw(batch.spans.finish());
        if (batch.scope.schemaUrl) {
          writer.tag(3, LENGTH_DELIMITED);
          writer.string(batch.scope.schemaUrl);
        }
        writer.end(scopeSpans);
        batch.spans.rewind(0);
      }
      if (resource.schemaUrl) {
        writer.tag(3, LENGTH_DELIMITED);
        writer.string(resource.schemaUrl);
      }
      writer.end(resourceSpans);
    }
    this.spans = 0;
    return writer.finish();
  }
}

/** The OTLP `ExportTraceServiceRequest` protobuf message for `spans` (TraceBatchEncoder, all at once). */
export function encodeTraceExportRequest(spans: ReadableSpan[]): Uint8Array {
  const encoder = new TraceBatchEncoder();
  for (const span of spans) encoder.add(span);
  return encoder.take();
}
