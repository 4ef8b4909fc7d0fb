/**
 * `npm run bench:scores [-- --creations 300 --rounds 5]`: the score API of a running service
 * (pinned to CPU 0; this client and the load tools on CPU 1), on the embedded store.
 *
 * 1. Score creation: `--creations` POST /v2/scores of a 1-page score, 4 in flight: scores/s.
 * 2. Export latency per format, for a 1-page score (8 measures, 1 part) and a 50-page one
 *    (300 measures, 8 parts): cold, the first request on a fresh revision (so it includes what
 *    that format is made from: the engraving under thumbnail.png, the WAV under the MP3), and
 *    cached, the median of `--rounds` later requests.
 * 3. Priority: `/json` p99 at half its maximum rate, alone and while 50-page exports render
 *    (a new revision's midi, then its mp3, over and over); the ratio of the two (goal: at most 1.5).
 */
import http from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureLoadTools } from '../native-bench/tools.js';
import { EXPORT_FORMATS, type ExportFormat } from '../src/scores/exports/index.js';
import { generatedScore } from '../test/support/generated-score.js';
import { issueToken } from '../test/support/score-api-client.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { startBenchService, writeBenchConfig } from './bench-fixture.js';
import { jsonP99WhileBusy } from './json-priority.js';

const SERVER_CPUS = '0';
const LOAD_CPUS = '1';
const IN_FLIGHT = 4;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

interface Answer {
  status: number;
  body: Buffer;
}

function request(url: string, method: string, token: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function ok(answer: Promise<Answer>, what: string): Promise<Answer> {
  const result = await answer;
  if (result.status !== 200) throw new Error(`${what}: ${result.status} ${result.body.toString().slice(0, 300)}`);
  return result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toString());

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

class ScoreBench {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async createScore(xml: string): Promise<string> {
    const created = await ok(request(`${this.base}/v2/scores`, 'POST', this.token, JSON.stringify({ privacy: 'private', data: xml })), 'create');
    return (JSON.parse(created.body.toString()) as { id: string }).id;
  }

  async newRevision(scoreId: string, xml: string): Promise<string> {
    const added = await ok(request(`${this.base}/v2/scores/${scoreId}/revisions`, 'POST', this.token, JSON.stringify({ data: xml })), 'revise');
    return (JSON.parse(added.body.toString()) as { id: string }).id;
  }

  exportOf(scoreId: string, revisionId: string, format: ExportFormat): Promise<Answer> {
    return ok(request(`${this.base}/v2/scores/${scoreId}/revisions/${revisionId}/${format}`, 'GET', this.token), `${format} export`);
  }

  async creations(count: number, xml: string): Promise<number> {
    let next = 0;
    const seconds =
      (await timed(() =>
        Promise.all(
          Array.from({ length: IN_FLIGHT }, async () => {
            while (next++ < count) await this.createScore(xml);
          }),
        ),
      )) / 1000;
    return count / seconds;
  }

  async exportLatencies(label: string, xml: string, rounds: number): Promise<void> {
    const scoreId = await this.createScore(xml);
    for (const format of EXPORT_FORMATS) {
      const revisionId = await this.newRevision(scoreId, xml);
      let bytes = 0;
      const cold = await timed(async () => (bytes = (await this.exportOf(scoreId, revisionId, format)).body.length));
      const cached: number[] = [];
      for (let i = 0; i < rounds; i++) cached.push(await timed(() => this.exportOf(scoreId, revisionId, format)));
      console.log(`${label.padEnd(8)} ${format.padEnd(22)} cold ${ms(cold).padStart(6)} ms   cached ${ms(median(cached)).padStart(6)} ms   ${(bytes / 1024).toFixed(0).padStart(7)} KiB`);
    }
  }
}

/** /json p99 at half its maximum rate, alone and while large exports render. */
async function priority(base: string, bench: ScoreBench, largeXml: string, dir: string): Promise<void> {
  const scoreId = await bench.createScore(largeXml);
  const result = await jsonP99WhileBusy(base, dir, LOAD_CPUS, 10, async () => {
    const revisionId = await bench.newRevision(scoreId, largeXml);
    await bench.exportOf(scoreId, revisionId, 'midi');
    await bench.exportOf(scoreId, revisionId, 'mp3');
  });
  console.log(`/json max ${Math.round(result.maxReqPerSec)} req/s; p99 at half rate: ${result.aloneP99Us} us alone, ${result.loadedP99Us} us while ${result.rounds} 50-page revisions were engraved and synthesised; ratio ${(result.loadedP99Us / result.aloneP99Us).toFixed(2)} (goal at most 1.5)`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { creations: { type: 'string', default: '300' }, rounds: { type: 'string', default: '5' } } });
  await ensureLoadTools();
  const temp = await makeTempDir('bench-scores-');
  const rules = await writeBenchConfig();
  const dataDir = join(temp.path, 'data');
  const service = await startBenchService({ ...rules.env, HTTP_WORKERS: '0', DATA_DIR: dataDir }, SERVER_CPUS);
  try {
    const bench = new ScoreBench(service.baseUrl, await issueToken({ DATA_DIR: dataDir }, 'bench', 'scores'));
    const small = generatedScore({ title: 'One page', measures: 8, parts: 1 });
    const large = generatedScore({ title: 'Fifty pages', measures: 300, parts: 8 });
    console.log(`service pinned to CPU ${SERVER_CPUS}; client and load on CPU ${LOAD_CPUS}`);
    const rate = await bench.creations(Number(values.creations), small);
    console.log(`score creation: ${Math.round(rate)} scores/s (${values.creations} 1-page scores, ${IN_FLIGHT} in flight)`);
    await bench.exportLatencies('1 page', small, Number(values.rounds));
    await bench.exportLatencies('50 pages', large, Number(values.rounds));
    await priority(service.baseUrl, bench, large, temp.path);
  } finally {
    await service.stop();
    agent.destroy();
    await rules.remove();
    await temp.remove();
  }
}

await main();
