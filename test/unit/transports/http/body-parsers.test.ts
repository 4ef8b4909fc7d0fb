/** Request bodies the API thread's handlers read: JSON and multipart uploads, built by a real client encoder. */
import t from 'tap';
import { mediaTypeOf, parseJsonBody, parseMultipartBody } from '../../../../src/transports/http/index.js';

const LIMITS = { maxFileBytes: 1024, maxFiles: 4, maxFields: 8 };

/** A multipart body exactly as fetch would send it (undici's FormData encoder). */
async function multipart(form: FormData): Promise<{ contentType: string; bytes: Uint8Array }> {
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { contentType: request.headers.get('content-type') ?? '', bytes: new Uint8Array(await request.arrayBuffer()) };
}

t.test('media types ignore parameters and case', async (t) => {
  t.equal(mediaTypeOf('Application/JSON; charset=utf-8'), 'application/json');
  t.equal(mediaTypeOf(undefined), '');
  t.equal(mediaTypeOf(' text/plain '), 'text/plain');
});

t.test('JSON bodies', async (t) => {
  t.same(parseJsonBody(new TextEncoder().encode('{"a":[1,2]}')), { ok: true, value: { a: [1, 2] } });
  t.same(parseJsonBody(new Uint8Array(0)), { ok: false, reason: 'body is empty' });
  t.same(parseJsonBody(new Uint8Array([0x22, 0xff, 0x22])), { ok: false, reason: 'body is not valid UTF-8' });
  const bad = parseJsonBody(new TextEncoder().encode('{"a":'));
  t.equal(bad.ok, false, 'truncated JSON');
  const deep = parseJsonBody(new TextEncoder().encode('['.repeat(100_000) + ']'.repeat(100_000)));
  t.equal(deep.ok, true, 'deep nesting neither throws nor crashes');
});

t.test('multipart uploads: fields and files', async (t) => {
  const form = new FormData();
  form.append('title', 'Sonata');
  form.append('tag', 'a');
  form.append('tag', 'b');
  form.append('file', new Blob([new Uint8Array([0, 1, 2, 255])], { type: 'application/vnd.recordare.musicxml' }), 'sonata.mxl');
  const { contentType, bytes } = await multipart(form);
  const parsed = await parseMultipartBody(contentType, bytes, LIMITS);
  if (!parsed.ok) throw new Error(parsed.reason);
  t.same([...parsed.form.fields], [['title', ['Sonata']], ['tag', ['a', 'b']]]);
  t.equal(parsed.form.files.length, 1);
  const [file] = parsed.form.files;
  t.equal(file?.field, 'file');
  t.equal(file?.filename, 'sonata.mxl');
  t.equal(file?.contentType, 'application/vnd.recordare.musicxml');
  t.same([...(file?.data ?? [])], [0, 1, 2, 255], 'binary content intact');
});

t.test('multipart limits fail the form with a reason', async (t) => {
  const big = new FormData();
  big.append('file', new Blob([new Uint8Array(2048)]), 'big.bin');
  const tooBig = await multipart(big);
  t.same(await parseMultipartBody(tooBig.contentType, tooBig.bytes, LIMITS), { ok: false, reason: 'file "big.bin" is larger than 1024 bytes' });

  const many = new FormData();
  for (let i = 0; i < 5; i++) many.append('file', new Blob(['x']), `f${i}`);
  const tooMany = await multipart(many);
  t.same(await parseMultipartBody(tooMany.contentType, tooMany.bytes, LIMITS), { ok: false, reason: 'more than 4 files' });
});

t.test('malformed multipart is a reason, never a throw', async (t) => {
  const noBoundary = await parseMultipartBody('multipart/form-data', new Uint8Array(10), LIMITS);
  t.equal(noBoundary.ok, false, 'no boundary');
  const truncated = await parseMultipartBody('multipart/form-data; boundary=abc', new TextEncoder().encode('--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue'), LIMITS);
  t.equal(truncated.ok, false, 'unexpected end');
  const notMultipart = await parseMultipartBody('application/json', new Uint8Array(0), LIMITS);
  t.equal(notMultipart.ok, false, 'another media type');
});
