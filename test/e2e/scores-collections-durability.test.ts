/**
 * Moving scores between collections survives kill -9: each move is one write, so after a
 * SIGKILL in the middle of moves, and a restart on the same DATA_DIR, every score is in exactly
 * one of the two collections it was moved between (none lost, none in both), and where every
 * acknowledged move put it.
 */
import { join } from 'node:path';
import t from 'tap';
import { deferred } from '../support/deferred.js';
import { generatedScore } from '../support/generated-score.js';
import { startProcess } from '../support/process-harness.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type ScoreApiClient } from '../support/score-api-client.js';
import { tempDir } from '../support/temp-dir.js';

const SCORES = 6;
const MOVES_BEFORE_KILL = 60;

interface Moving {
  id: string;
  /** Where the last acknowledged move put it. */
  at: 'root' | 'folder';
  /** A move was sent and not answered when the service died. */
  inFlight: boolean;
}

async function idsIn(client: ScoreApiClient, collection: string): Promise<Set<string>> {
  const answer = await client.call('GET', `/v2/collections/${collection}/scores?limit=100`);
  return new Set((answer.json() as Array<{ id: string }>).map((score) => score.id));
}

t.test('kill -9 while scores move between collections loses none and duplicates none', async (t) => {
  const dataDir = join(await tempDir(t, 'scores-collections-durable-'), 'data');
  const env = { ...(await scoreServiceEnv(dataDir)), RUNTIME_ROOT: '/nonexistent', HTTP_WORKERS: '1' };
  const first = await startProcess(t, env);
  const token = await issueToken(env, 'alice', 'scores,collections');
  const alice = scoreApiClient(first.baseUrl, token);
  const folder = ((await alice.call('POST', '/v2/collections', { title: 'Folder', privacy: 'private' })).json() as { id: string }).id;
  const moving: Moving[] = [];
  for (let i = 0; i < SCORES; i++) {
    const answer = await alice.call('POST', '/v2/scores', { privacy: 'private', data: generatedScore({ title: `Moved ${i}`, measures: 1, parts: 1 }) });
    moving.push({ id: (answer.json() as { id: string }).id, at: 'root', inFlight: false });
  }

  // Into the folder takes a score out of root (it is filed nowhere else); out of it puts it back.
  let acknowledged = 0;
  const enough = deferred<void>();
  // Half the scores stop after a few moves, so the check sees settled scores beside those in flight.
  const mover = async (score: Moving, index: number) => {
    for (let moves = 0; index % 2 === 1 || moves < 5; moves++) {
      score.inFlight = true;
      const answer = await alice.call(score.at === 'root' ? 'PUT' : 'DELETE', `/v2/collections/${folder}/scores/${score.id}`).catch(() => undefined);
      if (answer === undefined || answer.status >= 300) return;
      score.at = score.at === 'root' ? 'folder' : 'root';
      score.inFlight = false;
      if (++acknowledged === MOVES_BEFORE_KILL) enough.resolve();
    }
  };
  const movers = moving.map(mover);
  await enough.promise;
  first.kill('SIGKILL');
  await first.waitForExit();
  await Promise.all(movers);

  const second = await startProcess(t, env);
  const again = scoreApiClient(second.baseUrl, token);
  const [inRoot, inFolder] = [await idsIn(again, 'root'), await idsIn(again, folder)];
  for (const score of moving) {
    const places = [inRoot.has(score.id) ? 'root' : '', inFolder.has(score.id) ? 'folder' : ''].filter(Boolean);
    t.equal(places.length, 1, `${score.id} is in exactly one collection (${places.join(', ') || 'none'})`);
    if (!score.inFlight) t.same(places, [score.at], `${score.id} is where its last acknowledged move put it`);
  }
  t.ok(moving.some((score) => score.inFlight), 'the kill came while moves were in flight');
  t.ok(moving.some((score) => !score.inFlight), 'and after others had settled');
});
