/**
 * One-dimensional arrays in PostgreSQL's binary format, for batches sent as array parameters.
 * The driver sends a Buffer parameter as binary, so each text is encoded once, straight into
 * the buffer: no quoting and escaping into an array literal here, and no parsing of one in the
 * server (the driver's own array literals copy every text twice and escape every quote).
 */
const TEXT_OID = 25;
const INT4_OID = 23;
const HEADER_BYTES = 20;

function withHeader(bytes: number, count: number, hasNulls: boolean, elementOid: number): Buffer {
  const buffer = Buffer.allocUnsafe(count === 0 ? 12 : HEADER_BYTES + bytes);
  buffer.writeInt32BE(count === 0 ? 0 : 1, 0); // dimensions (an empty array has none)
  buffer.writeInt32BE(hasNulls ? 1 : 0, 4);
  buffer.writeInt32BE(elementOid, 8);
  if (count > 0) {
    buffer.writeInt32BE(count, 12);
    buffer.writeInt32BE(1, 16); // lower bound
  }
  return buffer;
}

/** A `text[]` parameter. `byteLengths`, when the caller has them, saves measuring each text again. */
export function textArray(values: readonly (string | null)[], byteLengths?: readonly number[]): Buffer {
  const lengths = byteLengths ?? values.map((value) => (value === null ? 0 : Buffer.byteLength(value)));
  let bytes = 0;
  for (let i = 0; i < values.length; i++) bytes += 4 + (values[i] === null ? 0 : lengths[i]);
  const buffer = withHeader(bytes, values.length, values.includes(null), TEXT_OID);
  let at = HEADER_BYTES;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null) {
      at = buffer.writeInt32BE(-1, at);
      continue;
    }
    at = buffer.writeInt32BE(lengths[i], at);
    at += buffer.write(value, at, lengths[i], 'utf8');
  }
  return buffer;
}

/** An `int[]` parameter (32-bit integers). */
export function int4Array(values: readonly number[]): Buffer {
  const buffer = withHeader(values.length * 8, values.length, false, INT4_OID);
  let at = HEADER_BYTES;
  for (const value of values) {
    at = buffer.writeInt32BE(4, at);
    at = buffer.writeInt32BE(value, at);
  }
  return buffer;
}
