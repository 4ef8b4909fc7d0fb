/**
 * The thread the hostile loads of bench/isolation.ts run on: niced to 19, so that h2load, which
 * measures `/json` on the same CPU, is not itself kept waiting by the attack it measures (an
 * attacker is another machine; here it is a thread that gives way).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { niceThisThread } from '../src/threads/index.js';
import { alertFlood, largeAnswers, longAudio, regexSilences, slowUploads, type HostileLoad } from './hostile-loads.js';

export interface HostileWorkerData {
  base: string;
  token: string;
  host: string;
  port: number;
}

/** bench/isolation.ts -> this thread. */
export type HostileCommand = { type: 'prepare' | 'start'; load: number } | { type: 'stop' };
/** This thread -> bench/isolation.ts. */
export type HostileReport = { type: 'names'; names: string[] } | { type: 'prepared' } | { type: 'started' } | { type: 'stopped'; rounds: number } | { type: 'failed'; message: string };

const { base, token, host, port } = workerData as HostileWorkerData;
niceThisThread(19);
const loads: HostileLoad[] = [alertFlood(base), largeAnswers(base, 4), regexSilences(base), longAudio(base, token), slowUploads(host, port)];
const post = (report: HostileReport) => parentPort?.postMessage(report);
let stop: (() => Promise<number>) | undefined;

parentPort?.on('message', (command: HostileCommand) => {
  void (async () => {
    try {
      if (command.type === 'prepare') {
        await loads[command.load]?.prepare?.();
        post({ type: 'prepared' });
      } else if (command.type === 'start') {
        stop = loads[command.load]?.start();
        post({ type: 'started' });
      } else {
        const rounds = (await stop?.()) ?? 0;
        stop = undefined;
        post({ type: 'stopped', rounds });
      }
    } catch (error) {
      post({ type: 'failed', message: (error as Error).message });
    }
  })();
});
post({ type: 'names', names: loads.map((load) => load.name) });
