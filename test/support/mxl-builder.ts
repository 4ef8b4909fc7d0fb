/**
 * .mxl archives built byte by byte for tests, including hostile ones: entries whose declared sizes
 * lie, and zip bombs (a GiB of zeros deflates to about a MB, built here in milliseconds by
 * repeating one independently flushed deflate block rather than compressing the whole GiB).
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

export interface RawZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  /** The bytes as stored in the archive (compressed for method 8). */
  data: Uint8Array;
  /** The uncompressed size written in the headers: the truth, unless a test makes it lie. */
  declaredSize: number;
  crc: number;
}

const MIB = 1024 * 1024;

export function deflatedEntry(name: string, content: Uint8Array | string): RawZipEntry {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return { name, method: 8, data: deflateRawSync(bytes, { level: 9 }), declaredSize: bytes.byteLength, crc: crc32(bytes) };
}

/**
 * `before`, then `mebibytes` MiB of the byte `fill`, then `after`, as one deflated entry, about
 * 1 KB per MiB: a block flushed with Z_FULL_FLUSH depends on nothing before it, so the blocks can
 * be laid one after another, the last one ending the stream.
 */
export function paddedEntry(name: string, { before = '', fill, mebibytes, after = '' }: { before?: string; fill: number; mebibytes: number; after?: string }): RawZipEntry {
  const flushed = (bytes: Buffer) => deflateRawSync(bytes, { finishFlush: constants.Z_FULL_FLUSH });
  const head = Buffer.from(before);
  const padding = Buffer.alloc(MIB, fill);
  const tail = Buffer.from(after);
  const block = flushed(padding);
  const data = Buffer.concat([flushed(head), ...Array<Buffer>(mebibytes).fill(block), deflateRawSync(tail)]);
  let crc = crc32(head);
  for (let i = 0; i < mebibytes; i++) crc = crc32(padding, crc);
  return { name, method: 8, data, declaredSize: head.length + mebibytes * MIB + tail.length, crc: crc32(tail, crc) };
}

/** `mebibytes` MiB of zeros as one deflated entry: a zip bomb of the plainest kind. */
export function zerosEntry(name: string, mebibytes: number): RawZipEntry {
  return paddedEntry(name, { fill: 0, mebibytes });
}

export const CONTAINER_XML = (rootfile: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><container><rootfiles><rootfile full-path="${rootfile}" media-type="application/vnd.recordare.musicxml+xml"/></rootfiles></container>`;

/**
 * The fields a local header (from byte 4) and a central directory header (from byte 6) share, in
 * the same order: version needed, flags (UTF-8 names), method, time and date (zero), CRC, sizes,
 * name length.
 */
function writeSharedFields(header: Buffer, at: number, entry: RawZipEntry, nameLength: number): void {
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(0x0800, at + 2);
  header.writeUInt16LE(entry.method, at + 4);
  header.writeUInt32LE(entry.crc >>> 0, at + 10);
  header.writeUInt32LE(entry.data.byteLength, at + 14);
  header.writeUInt32LE(entry.declaredSize, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
}

/** A zip of the entries as given, sizes and all (32-bit fields: entries under 4 GiB). */
export function zipOf(entries: readonly RawZipEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeSharedFields(local, 4, entry, name.length);
    parts.push(local, name, Buffer.from(entry.data));
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    writeSharedFields(header, 6, entry, name.length);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += 30 + name.length + entry.data.byteLength;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** An .mxl whose container names `rootfile`, with `entries` after the container. */
export function mxlOf(rootfile: string, entries: readonly RawZipEntry[]): Uint8Array {
  return zipOf([deflatedEntry('META-INF/container.xml', CONTAINER_XML(rootfile)), ...entries]);
}
