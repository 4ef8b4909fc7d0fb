/**
 * The priority measure the API benchmarks share: `/json` p99 at half its maximum rate, alone and
 * while another API is kept busy, round after round. The ratio of the two says whether the
 * lower-priority work delays decisions (goal: at most 1.5).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runH2load } from '../native-bench/h2load.js';
import { runWrk, writeWrkScript } from '../native-bench/wrk.js';
import { BENCH_BODY } from './bench-request.js';

export interface JsonPriority {
  maxReqPerSec: number;
  aloneP99Us: number;
  loadedP99Us: number;
  /** Rounds of the background work completed during the loaded measurement. */
  rounds: number;
}

export async function jsonP99WhileBusy(baseUrl: string, dir: string, loadCpus: string, seconds: number, round: () => Promise<unknown>): Promise<JsonPriority> {
  const script = await writeWrkScript(dir, BENCH_BODY);
  const bodyFile = join(dir, 'body.json');
  await writeFile(bodyFile, BENCH_BODY);
  const jsonUrl = `${baseUrl}/json`;
  await runWrk(jsonUrl, script, 3, loadCpus);
  const max = await runWrk(jsonUrl, script, 5, loadCpus);
  const clients = 8;
  const half = (logFile: string) =>
    runH2load({ url: jsonUrl, dataFile: bodyFile, headers: ['content-type: application/json'], h1: true, clients, streams: 1, seconds, rpsPerClient: max.reqPerSec / 2 / clients, logFile: join(dir, logFile), cpus: loadCpus });
  const alone = await half('alone.tsv');
  let busy = true;
  let rounds = 0;
  const load = (async () => {
    while (busy) {
      await round();
      rounds++;
    }
  })();
  const loaded = await half('loaded.tsv');
  busy = false;
  await load;
  return { maxReqPerSec: max.reqPerSec, aloneP99Us: alone.p99Us, loadedP99Us: loaded.p99Us, rounds };
}
