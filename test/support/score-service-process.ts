/**
 * The score API in a real service process for whole-process tests: two users with tokens, scores
 * created over HTTP, and the process's peak memory.
 */
import { startProcess, type ServiceProcess } from './process-harness.js';
import { memoryOf } from './process-memory.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type ScoreApiClient } from './score-api-client.js';
import type { Teardown } from './teardown.js';
import { tempDir } from './temp-dir.js';

export interface ScoreServiceProcess {
  proc: ServiceProcess;
  /** Two users with the `scores` scope. */
  alice: ScoreApiClient;
  bob: ScoreApiClient;
  dataDir: string;
}

/** A service on a fresh DATA_DIR (and store), with `env` besides. */
export async function scoreServiceProcess(t: Teardown, env: Record<string, string> = {}): Promise<ScoreServiceProcess> {
  const dataDir = await tempDir(t, 'score-service-');
  const storeEnv = { ...(await scoreServiceEnv(dataDir)), RUNTIME_ROOT: '/nonexistent', HTTP_WORKERS: '1' };
  const proc = await startProcess(t, { ...storeEnv, ...env });
  const client = async (user: string) => scoreApiClient(proc.baseUrl, await issueToken(storeEnv, user, 'scores'));
  return { proc, alice: await client('alice'), bob: await client('bob'), dataDir };
}

/** A new score of `xml` by `owner`: the path of its last revision's exports, and that revision's id. */
export async function scoreOf(owner: ScoreApiClient, xml: string): Promise<{ base: string; revisionId: string }> {
  const { id } = (await owner.call('POST', '/v2/scores', { privacy: 'private', data: xml })).json() as { id: string };
  const revision = (await owner.call('GET', `/v2/scores/${id}/revisions/last`)).json() as { id: string };
  return { base: `/v2/scores/${id}/revisions/${revision.id}`, revisionId: revision.id };
}

/** The most the process ever held resident (VmHWM), MiB. */
export async function peakMiB(proc: ServiceProcess): Promise<number> {
  return (await memoryOf(proc.child.pid as number)).peakMiB;
}
