import { Readable } from 'node:stream';
import busboy from 'busboy';
import { decode } from './body-reader.js';

/** The media type of a Content-Type header, lower case and without parameters ('' when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * A JSON body: strict UTF-8 (malformed bytes are refused, as Go's decoder does), then JSON.parse.
 * An empty body is `{ ok: false }`; the caller decides whether that means "no body".
 */
export function parseJsonBody(bytes: Uint8Array): JsonBody {
  const text = decode(bytes);
  if (!text.ok) return { ok: false, reason: 'body is not valid UTF-8' };
  if (text.body.trim() === '') return { ok: false, reason: 'body is empty' };
  try {
    return { ok: true, value: JSON.parse(text.body) as unknown };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

export interface UploadedFile {
  /** The form field the file came in. */
  field: string;
  filename: string;
  contentType: string;
  data: Uint8Array;
}

export interface MultipartForm {
  /** Text fields; a repeated name keeps every value in order. */
  fields: Map<string, string[]>;
  files: UploadedFile[];
}

export interface MultipartLimits {
  /** Largest single file; a larger one fails the whole form. */
  maxFileBytes: number;
  maxFiles: number;
  maxFields: number;
}

export type MultipartBody = { ok: true; form: MultipartForm } | { ok: false; reason: string };

/**
 * A `multipart/form-data` body (busboy's parser), read whole. Files beyond the limits fail the
 * form with a reason that names the limit, rather than being cut short silently.
 */
export function parseMultipartBody(contentType: string, bytes: Uint8Array, limits: MultipartLimits): Promise<MultipartBody> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: limits.maxFields },
      });
    } catch (error) {
      resolve({ ok: false, reason: (error as Error).message });
      return;
    }
    const form: MultipartForm = { fields: new Map(), files: [] };
    let failure: string | undefined;
    const fail = (reason: string) => (failure ??= reason);
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(`form field ${JSON.stringify(name)} is too long`);
      const values = form.fields.get(name);
      if (values === undefined) form.fields.set(name, [value]);
      else values.push(value);
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(`file ${JSON.stringify(info.filename)} is larger than ${limits.maxFileBytes} bytes`));
      stream.on('end', () => {
        form.files.push({ field, filename: info.filename ?? '', contentType: info.mimeType, data: new Uint8Array(Buffer.concat(chunks)) });
      });
    });
    parser.on('filesLimit', () => fail(`more than ${limits.maxFiles} files`));
    parser.on('fieldsLimit', () => fail(`more than ${limits.maxFields} form fields`));
    parser.on('error', (error: Error) => resolve({ ok: false, reason: `malformed multipart body: ${error.message}` }));
    parser.on('close', () => resolve(failure === undefined ? { ok: true, form } : { ok: false, reason: failure }));
    Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]).pipe(parser);
  });
}
