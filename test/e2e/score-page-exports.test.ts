/**
 * The page formats (svg, pdf, png), the measure boxes of the synchronization points, `parts`
 * and per-part audio, produced by the running service and read back: the PDF's pages and title,
 * the SVG's measures, the PNG's size and ink, where a stem sounds and where it is silent.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8 } from 'fflate';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { issueToken as token, scoreApiClient, scoreServiceEnv } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const TITLE = 'Pages of Three';

interface Box {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A started service with one score of `xml`: its revision's export path, alice's client, the data directory. */
async function serviceWithScore(t: Test, xml: string) {
  const dataDir = await tempDir(t, 'score-pages-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const alice = scoreApiClient(service.baseUrl, await token(env, 'alice', 'scores'));
  const created = await alice.call('POST', '/v2/scores', { privacy: 'private', data: xml });
  const scoreId = (created.json() as { id: string }).id;
  const revisionId = ((await alice.call('GET', `/v2/scores/${scoreId}/revisions/last`)).json() as { id: string }).id;
  return { alice, base: `/v2/scores/${scoreId}/revisions/${revisionId}`, exports: join(dataDir, 'scores', 'exports', revisionId) };
}

/** Root mean square of the 16-bit PCM samples between two times, read from the WAV's own header. */
function wavWindow(bytes: Uint8Array, fromSeconds: number, toSeconds: number): { rms: number; seconds: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const channels = view.getUint16(22, true);
  const rate = view.getUint32(24, true);
  let at = 12;
  while (String.fromCharCode(...bytes.subarray(at, at + 4)) !== 'data') at += 8 + view.getUint32(at + 4, true);
  const frames = view.getUint32(at + 4, true) / (2 * channels);
  const start = at + 8;
  let sum = 0;
  let count = 0;
  for (let frame = Math.floor(fromSeconds * rate); frame < Math.min(frames, Math.floor(toSeconds * rate)); frame++) {
    for (let channel = 0; channel < channels; channel++) {
      const sample = view.getInt16(start + (frame * channels + channel) * 2, true) / 32768;
      sum += sample * sample;
      count++;
    }
  }
  return { rms: Math.sqrt(sum / Math.max(1, count)), seconds: frames / rate };
}

t.test('svg, pdf and png pages, measure boxes, and parts', async (t) => {
  const { alice, base, exports } = await serviceWithScore(t, generatedScore({ title: TITLE, measures: 40, parts: 3 }));

  const first = await alice.call('GET', `${base}/svg`);
  t.equal(first.status, 200);
  t.equal(first.type, 'image/svg+xml');
  const pageCount = Number(first.headers.get('x-page-count'));
  t.ok(pageCount >= 2, `the score takes several pages (${pageCount})`);
  const measuresOn = (svg: string) => svg.match(/class="measure"/g)?.length ?? 0;
  const firstSvg = strFromU8(first.bytes);
  t.ok(measuresOn(firstSvg) > 0, `page 1 draws measures (${measuresOn(firstSvg)})`);
  const second = await alice.call('GET', `${base}/svg?page=2`);
  t.equal(second.headers.get('x-page-count'), String(pageCount), 'every page says how many there are');
  t.not(strFromU8(second.bytes), firstSvg, 'page 2 is another page');
  const perPage = [measuresOn(firstSvg), measuresOn(strFromU8(second.bytes))];
  for (let page = 3; page <= pageCount; page++) perPage.push(measuresOn(strFromU8((await alice.call('GET', `${base}/svg?page=${page}`)).bytes)));
  t.equal(perPage.reduce((a, b) => a + b), 40, 'the pages draw the 40 measures between them');

  const pdf = await alice.call('GET', `${base}/pdf`);
  t.equal(pdf.type, 'application/pdf');
  const pdfText = Buffer.from(pdf.bytes).toString('latin1');
  t.match(pdfText, /^%PDF-1\.\d/);
  t.equal(pdfText.match(/\/Type \/Page\b/g)?.length, pageCount, 'a PDF page per engraved page');
  const titleObject = /\/Title (\d+) 0 R/.exec(pdfText)?.[1];
  t.match(pdfText, `\n${titleObject} 0 obj\n(${TITLE})`, "the document information's /Title is the score's title");

  const png = await alice.call('GET', `${base}/png?page=2&dpi=72`);
  t.equal(png.type, 'image/png');
  const image = PNG.sync.read(Buffer.from(png.bytes));
  t.same([image.width, image.height], [595, 842], 'an A4 page at 72 dpi');
  t.equal(PNG.sync.read(Buffer.from((await alice.call('GET', `${base}/png?page=2`)).bytes)).width, 1240, 'and at the default 150 dpi');
  let ink = 0;
  for (let i = 0; i < image.data.length; i += 4) if ((image.data[i] as number) < 128) ink++;
  t.ok(ink > 1000, `page 2 has notation on it (${ink} dark pixels)`);

  const points = (await alice.call('GET', `${base}/synchronizationPoints`)).json() as Array<{ type: string; boxes?: Box[] }>;
  const boxes = points.filter((point) => point.type === 'measure').map((point) => point.boxes ?? []);
  t.equal(boxes.length, 40);
  t.ok(boxes.every((each) => each.length === 1), 'each measure has one box, on the page it is drawn on');
  const flat = boxes.map((each) => each[0] as Box);
  t.same([...Array(pageCount).keys()].map((index) => flat.filter((box) => box.page === index + 1).length), perPage, "each page's boxes are its measures");
  t.ok(flat.every((box) => box.x >= 0 && box.y >= 0 && box.width > 0 && box.height > 0 && box.x + box.width <= 840 && box.y + box.height <= 1188), 'every box inside its 840 x 1188 page');
  const inOrder = flat.every((box, i) => i === 0 || box.page > (flat[i - 1] as Box).page || (box.page === (flat[i - 1] as Box).page && (box.y > (flat[i - 1] as Box).y + (flat[i - 1] as Box).height || (Math.abs(box.y - (flat[i - 1] as Box).y) < 1 && box.x >= (flat[i - 1] as Box).x + (flat[i - 1] as Box).width - 1))));
  t.ok(inOrder, 'in reading order: left to right along a system, systems down the page, page after page');

  const partXml = strFromU8((await alice.call('GET', `${base}/xml?parts=1`)).bytes);
  t.match(partXml, '<part id="P2">');
  t.notMatch(partXml, /id="P1"|id="P3"/, 'the xml of part 1 holds that part only');
  t.match(strFromU8((await alice.call('GET', `${base}/xml?parts=P3,P1`)).bytes).match(/<part id="\w+">/g), ['<part id="P1">', '<part id="P3">'], 'parts named by id');
  const midiOf = async (parts: string) => (await alice.call('GET', `${base}/midi?parts=${parts}`)).bytes;
  t.same(await midiOf('1,0'), await midiOf('0,1'), 'one part set, however ordered');
  await midiOf('2');
  t.same(readdirSync(exports).filter((name) => name.endsWith('score.mid')).sort(), ['parts-0.1.score.mid', 'parts-2.score.mid', 'score.mid'], 'a MIDI file per part set, beside the whole score');
  t.equal((await alice.call('GET', `${base}/midi?parts=0,2&onlyCached=true`)).status, 404, 'onlyCached looks for the part set asked for');
  t.equal((await alice.call('GET', `${base}/midi?parts=1,0&onlyCached=true`)).status, 200);

  const { url } = (await alice.call('GET', `${base}/svg?page=2&url=true`)).json() as { url: string };
  const anonymous = scoreApiClient(url.slice(0, url.indexOf('/v2/')), undefined);
  t.same((await anonymous.call('GET', url)).bytes, second.bytes, 'a signed link keeps the page it was asked for');
  t.equal((await anonymous.call('GET', url.replace('page=2', 'page=1'))).status, 403, 'and is for that page only');

  const partSvg = await alice.call('GET', `${base}/svg?parts=2`);
  t.ok(Number(partSvg.headers.get('x-page-count')) < pageCount, 'one part takes fewer pages');

  for (const [query, param] of [['svg?page=99', 'page'], ['svg?page=0', 'page'], ['png?dpi=20', 'dpi'], ['png?dpi=301', 'dpi'], ['xml?parts=3', 'parts'], ['midi?parts=P9', 'parts'], ['midi?parts=0,,1', 'parts'], ['wav?parts=0&otherParts=loud', 'otherParts']]) {
    const refused = await alice.call('GET', `${base}/${query}`);
    t.equal(refused.status, 400, `${query} is refused`);
    t.match(refused.json(), { code: 'BAD_REQUEST', param }, `naming ${param}`);
  }
});

t.test('a stem sounds where its part plays; muted keeps the mix length, removed is the part alone', async (t) => {
  // Part 1 plays the first two measures, part 2 the last two: 2 s each at 120 quarter notes a minute.
  const xml = generatedScore({ title: 'Turns', measures: 4, parts: 2, plays: (part, measure) => (part === 1) === measure <= 2 });
  const { alice, base } = await serviceWithScore(t, xml);
  const wav = async (query: string) => (await alice.call('GET', `${base}/wav${query}`)).bytes;
  const mix = await wav('');
  const floor = 0.003;
  const quiet = 0.0005;

  for (const [part, playsFrom, silentFrom] of [
    [0, 0, 4.5],
    [1, 4, 0],
  ] as const) {
    const muted = await wav(`?parts=${part}&otherParts=muted`);
    t.equal(wavWindow(muted, 0, 0).seconds, wavWindow(mix, 0, 0).seconds, `part ${part} muted lasts as long as the mix`);
    const sound = wavWindow(muted, playsFrom, playsFrom + 3.5).rms;
    const silence = wavWindow(muted, silentFrom, silentFrom + 3.5).rms;
    t.ok(sound > floor, `part ${part} sounds where it plays (rms ${sound.toFixed(4)})`);
    t.ok(silence < quiet, `and is near silent where only the other part plays (rms ${silence.toFixed(5)})`);
  }
  const removed = await wav('?parts=0');
  t.equal(wavWindow(removed, 0, 0).seconds, 8, 'removed: the part alone, as long as its own score (its rests count)');
  t.ok(wavWindow(removed, 0, 3.5).rms > floor && wavWindow(removed, 4.5, 8).rms < quiet, 'sounding in its own measures only');
});
