import { inflateRawSync } from 'node:zlib';

/**
 * The few things reading an .mxl needs of a zip archive: find an entry by name in the central
 * directory and inflate that one entry, never more than a bound. Nothing is inflated that is not
 * asked for, and the bound holds whatever sizes the archive declares: inflating stops at it.
 */

/** One file of the archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; anything else is refused when read. */
  method: number;
  flags: number;
  compressedSize: number;
  /** The uncompressed size the archive declares, which may be a lie. */
  declaredSize: number;
  localHeaderOffset: number;
}

/** An archive or entry that cannot be read as a zip; the message says what is wrong. */
export interface ZipDamage {
  kind: 'damaged';
  message: string;
}

/** Why an entry cannot be read: damaged, or past the bound it was read under (by the size it declares, or found inflating). */
export type ZipProblem = ZipDamage | { kind: 'too-large'; declared: number | undefined };

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;
/** The end record is 22 bytes and may be followed by a comment of up to 65535. */
const EOCD_SEARCH = 22 + 0xffff;
const FLAG_ENCRYPTED = 0x1;

const utf8 = new TextDecoder('utf-8');

function damaged(message: string): ZipDamage {
  return { kind: 'damaged', message };
}

export class ZipArchive {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly view: DataView,
    private readonly directoryOffset: number,
    private readonly directoryEnd: number,
    private readonly entryCount: number,
  ) {}

  /** The archive's central directory, located from its end record. */
  static open(bytes: Uint8Array): ZipArchive | ZipDamage {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let end = -1;
    for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - EOCD_SEARCH); at--) {
      if (view.getUint32(at, true) === EOCD) {
        end = at;
        break;
      }
    }
    if (end < 0) return damaged('no end of central directory record');
    let count = view.getUint16(end + 10, true);
    let size = view.getUint32(end + 12, true);
    let offset = view.getUint32(end + 16, true);
    if (count === U16_MAX || size === U32_MAX || offset === U32_MAX) {
      const locator = end - 20;
      if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) return damaged('a ZIP64 archive without its end record locator');
      const record = Number(view.getBigUint64(locator + 8, true));
      if (record + 56 > bytes.byteLength || view.getUint32(record, true) !== ZIP64_EOCD) return damaged('the ZIP64 end of central directory record is missing');
      count = Number(view.getBigUint64(record + 32, true));
      size = Number(view.getBigUint64(record + 40, true));
      offset = Number(view.getBigUint64(record + 48, true));
    }
    if (offset + size > bytes.byteLength) return damaged('the central directory lies past the end of the archive');
    return new ZipArchive(bytes, view, offset, offset + size, count);
  }

  /** The entry called `name`, found by a walk through the central directory. */
  find(name: string): ZipEntry | ZipDamage | undefined {
    let at = this.directoryOffset;
    for (let i = 0; i < this.entryCount; i++) {
      if (at + 46 > this.directoryEnd || this.view.getUint32(at, true) !== CENTRAL_HEADER) return damaged('the central directory is damaged');
      const nameLength = this.view.getUint16(at + 28, true);
      const extraLength = this.view.getUint16(at + 30, true);
      const commentLength = this.view.getUint16(at + 32, true);
      const next = at + 46 + nameLength + extraLength + commentLength;
      if (next > this.directoryEnd) return damaged('the central directory is damaged');
      if (utf8.decode(this.bytes.subarray(at + 46, at + 46 + nameLength)) === name) return this.entryAt(at, name, at + 46 + nameLength, extraLength);
      at = next;
    }
    return undefined;
  }

  private entryAt(at: number, name: string, extraStart: number, extraLength: number): ZipEntry {
    const entry: ZipEntry = {
      name,
      flags: this.view.getUint16(at + 8, true),
      method: this.view.getUint16(at + 10, true),
      compressedSize: this.view.getUint32(at + 20, true),
      declaredSize: this.view.getUint32(at + 24, true),
      localHeaderOffset: this.view.getUint32(at + 42, true),
    };
    // ZIP64: each field that reads 0xFFFFFFFF is in the extra field, in this order.
    for (let field = extraStart; field + 4 <= extraStart + extraLength; ) {
      const id = this.view.getUint16(field, true);
      const length = this.view.getUint16(field + 2, true);
      if (id === ZIP64_EXTRA) {
        let value = field + 4;
        const next = (): number => {
          const read = value + 8 <= field + 4 + length ? Number(this.view.getBigUint64(value, true)) : U32_MAX;
          value += 8;
          return read;
        };
        if (entry.declaredSize === U32_MAX) entry.declaredSize = next();
        if (entry.compressedSize === U32_MAX) entry.compressedSize = next();
        if (entry.localHeaderOffset === U32_MAX) entry.localHeaderOffset = next();
      }
      field += 4 + length;
    }
    return entry;
  }

  /**
   * The entry's bytes, at most `bound` of them. An entry that declares more is refused before
   * anything is inflated; one that declares less but holds more stops inflating at the bound.
   */
  read(entry: ZipEntry, bound: number): Uint8Array | ZipProblem {
    if (entry.flags & FLAG_ENCRYPTED) return damaged(`${entry.name} is encrypted`);
    if (entry.declaredSize > bound) return { kind: 'too-large', declared: entry.declaredSize };
    const local = entry.localHeaderOffset;
    if (local + 30 > this.bytes.byteLength || this.view.getUint32(local, true) !== LOCAL_HEADER) return damaged(`the local header of ${entry.name} is missing`);
    const start = local + 30 + this.view.getUint16(local + 26, true) + this.view.getUint16(local + 28, true);
    if (start + entry.compressedSize > this.bytes.byteLength) return damaged(`${entry.name} runs past the end of the archive`);
    const data = this.bytes.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) return data.byteLength > bound ? { kind: 'too-large', declared: undefined } : data;
    if (entry.method !== 8) return damaged(`${entry.name} uses compression method ${entry.method}; .mxl entries are stored or deflated`);
    try {
      return inflateRawSync(data, { maxOutputLength: bound });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { kind: 'too-large', declared: undefined };
      return damaged(`${entry.name} cannot be inflated: ${(error as Error).message}`);
    }
  }
}
