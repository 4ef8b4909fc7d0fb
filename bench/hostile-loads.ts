/**
 * What an attacker or a heavy user can send the alert and score APIs, as loads that run in the
 * background of a `/json` latency measurement (bench/isolation.ts). Each one keeps going until it
 * is stopped and says how many rounds it completed.
 */
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { generatedScore } from '../test/support/generated-score.js';

/** A load that runs until the returned function stops it; that function resolves to its rounds. */
export interface HostileLoad {
  name: string;
  /** Work done before the measurement (storing alerts, creating silences); not measured. */
  prepare?(): Promise<void>;
  start(): () => Promise<number>;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** One request; the body is read and dropped. Resolves with the status (0 on a socket error). */
export function send(base: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const request = http.request(`${base}${path}`, { method, agent, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    request.on('error', () => resolve(0));
    request.end(body);
  });
}

/** Runs `round` in `parallel` loops until stopped. */
function loop(parallel: number, round: (worker: number, n: number) => Promise<unknown>): () => Promise<number> {
  let running = true;
  let rounds = 0;
  const workers = Array.from({ length: parallel }, async (_, worker) => {
    while (running) {
      await round(worker, rounds);
      rounds++;
    }
  });
  return async () => {
    running = false;
    await Promise.all(workers);
    return rounds;
  };
}

function alerts(prefix: string, count: number, endsAt: Date): string {
  return JSON.stringify(
    Array.from({ length: count }, (_, i) => ({
      labels: { alertname: `flood-${i % 50}`, team: ['a', 'b', 'c', 'd'][i % 4], severity: i % 10 === 0 ? 'critical' : 'warning', instance: `${prefix}-${i}` },
      annotations: { summary: `alert ${prefix} number ${i}`, description: 'disk usage above 90% on the data volume for the last 15 minutes' },
      endsAt: endsAt.toISOString(),
    })),
  );
}

/** Unauthenticated posts of 5,000 distinct alerts each, every batch resolved a second later. */
export function alertFlood(base: string): HostileLoad {
  return {
    name: 'POST /api/v2/alerts: 5,000 new alerts a request, each resolved 1 s later',
    start() {
      const resolving: Array<Promise<number>> = [];
      const stop = loop(2, async (worker, n) => {
        const prefix = `flood-${worker}-${n}-${Date.now()}`;
        await send(base, 'POST', '/api/v2/alerts', alerts(prefix, 5000, new Date(Date.now() + 3_600_000)));
        resolving.push(new Promise((resolve) => setTimeout(resolve, 1000)).then(() => send(base, 'POST', '/api/v2/alerts', alerts(prefix, 5000, new Date()))));
      });
      return async () => {
        const rounds = await stop();
        await Promise.all(resolving);
        return rounds;
      };
    },
  };
}

/** 100,000 firing alerts stored; readers fetch them all (about 45 MB an answer) as fast as they can. */
export function largeAnswers(base: string, readers: number): HostileLoad {
  return {
    name: `GET /api/v2/alerts of 100,000 alerts (a 45 MB answer), ${readers} readers`,
    async prepare() {
      const endsAt = new Date(Date.now() + 6 * 3_600_000);
      // A flood before may have filled ALERTMANAGER_MAX_ALERTS with resolved alerts that leave
      // ALERTMANAGER_RESOLVED_RETENTION after their end: a refused batch waits for them.
      const deadline = Date.now() + 60_000;
      for (let batch = 0; batch < 20; ) {
        const status = await send(base, 'POST', '/api/v2/alerts', alerts(`stored-${batch}`, 5000, endsAt));
        if (status === 200) batch++;
        else if (status !== 503 || Date.now() > deadline) throw new Error(`storing alerts: ${status}`);
        else await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
    start: () => loop(readers, () => send(base, 'GET', '/api/v2/alerts')),
  };
}

/** 1,000 silences, each a regular expression over `instance`, beside the stored alerts; one reader of every alert. */
export function regexSilences(base: string): HostileLoad {
  return {
    name: 'GET /api/v2/alerts with 100,000 alerts and 1,000 regex silences',
    async prepare() {
      for (let i = 0; i < 1000; i++) {
        const body = JSON.stringify({
          matchers: [{ name: 'instance', value: `stored-${i % 20}-(${i}|${i + 1000}|${i + 2000})[0-9]*`, isRegex: true }],
          startsAt: new Date().toISOString(),
          endsAt: new Date(Date.now() + 6 * 3_600_000).toISOString(),
          createdBy: 'bench',
          comment: `silence ${i}`,
        });
        const status = await send(base, 'POST', '/api/v2/silences', body);
        if (status !== 200) throw new Error(`creating a silence: ${status}`);
      }
    },
    start: () => loop(1, () => send(base, 'GET', '/api/v2/alerts')),
  };
}

/** A score of `measures` 4/4 measures played at `bpm` beats a minute. */
function scoreAtTempo(measures: number, bpm: number): string {
  return generatedScore({ title: `${measures} measures at ${bpm}`, measures, parts: 1 }).replace('</attributes>', `</attributes><sound tempo="${bpm}"/>`);
}

/**
 * New scores whose WAV export is long, two at a time: 50 measures at tempo 60 (200 s of audio)
 * and the same at tempo 6 (33 minutes, past any sane bound).
 */
export function longAudio(base: string, token: string): HostileLoad {
  const auth = { authorization: `Bearer ${token}` };
  const scores = [scoreAtTempo(50, 60), scoreAtTempo(50, 6)];
  return {
    name: 'GET .../wav of new 50-measure scores at tempo 60 and 6, two at a time',
    start: () =>
      loop(2, async (_worker, n) => {
        const created = await new Promise<string>((resolve) => {
          const body = JSON.stringify({ privacy: 'private', data: scores[n % 2] });
          const request = http.request(`${base}/v2/scores`, { method: 'POST', agent, headers: { ...auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += String(chunk)));
            res.on('end', () => resolve(text));
          });
          request.on('error', () => resolve('{}'));
          request.end(body);
        });
        const score = JSON.parse(created) as { id?: string };
        if (score.id !== undefined) await send(base, 'GET', `/v2/scores/${score.id}/revisions/last/wav`, undefined, auth);
      }),
  };
}

/** 40 connections, each declaring a 30 MB body and withholding its last byte; a refused one tries again a second later. */
export function slowUploads(host: string, port: number): HostileLoad {
  const declared = 30_000_000;
  const head = `POST /api/v2/alerts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`;
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const RETRY_MS = 1000;
  return {
    name: '40 connections uploading 30 MB bodies, last byte withheld, retrying a second after a refusal',
    start() {
      let running = true;
      let rounds = 0;
      const sockets = new Set<Socket>();
      const open = (): void => {
        if (!running) return;
        const socket = connect(port, host);
        sockets.add(socket);
        let sent = 0;
        const pump = (): void => {
          while (running && sent < declared - 1) {
            const size = Math.min(chunk.byteLength, declared - 1 - sent);
            sent += size;
            if (!socket.write(chunk.subarray(0, size))) return void socket.once('drain', pump);
          }
        };
        socket.on('connect', () => {
          socket.write(head);
          pump();
        });
        socket.on('data', () => socket.destroy());
        socket.on('error', () => undefined);
        socket.on('close', () => {
          sockets.delete(socket);
          rounds++;
          setTimeout(open, RETRY_MS);
        });
      };
      for (let i = 0; i < 40; i++) open();
      return () => {
        running = false;
        for (const socket of sockets) socket.destroy();
        return Promise.resolve(rounds);
      };
    },
  };
}
