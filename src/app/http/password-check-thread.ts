/**
 * Entry point of the password-check thread: bcrypt comparisons for the web configuration's
 * basic_auth_users, asked by every HTTP thread over its own port. bcrypt is slow by design, so it
 * runs here, at API_THREAD_NICE, never on a thread that decides.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { niceThisThread } from '../../threads/index.js';
import { answerPasswordChecks, VerdictCache } from '../../transports/http/basic-auth/index.js';
import type { PasswordThreadMessage } from './web-front.js';

const { nice } = workerData as { nice: number };
niceThisThread(nice);
const verdicts = new VerdictCache();
parentPort?.on('message', (message: PasswordThreadMessage) => answerPasswordChecks(message.port as MessagePort, verdicts));
