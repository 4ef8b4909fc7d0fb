import { readSecretFile } from '../config-files.js';
import { goEncoderText } from '../go-json.js';
import type { HttpAnswer, HttpSender } from '../http-sender.js';
import { resultOfAnswer, resultOfError } from '../http-sender.js';
import type { NotifyRequest, NotifyResult } from '../integration.js';

/** JSON as Go's encoding/json Encoder writes a struct, so a receiver gets the bytes Alertmanager would send. */
export function goJson(value: unknown): string {
  return goEncoderText(JSON.stringify(value));
}

/** A setting given inline or as a file to read (`api_url` or `api_url_file`). */
export function inlineOrFile(baseDir: string, inline: string, file: string): Promise<{ ok: true; value: string } | { ok: false; error: string }> {
  return file === '' ? Promise.resolve({ ok: true, value: inline }) : readSecretFile(baseDir, file);
}

/** A failure that no retry can mend: a template that fails, a missing key, a file that cannot be read. */
export function permanentFailure(error: string): NotifyResult {
  return { ok: false, retry: false, reason: 'other', error };
}

/**
 * An integration's own reading of an answer (Alertmanager's notify.Retrier): 2xx is sent, 5xx
 * and `retryCodes` are retried; `details` replaces the body in the error when given.
 */
export interface AnswerRules {
  retryCodes?: readonly number[];
  details?: (answer: HttpAnswer) => string;
}

export function resultOfIntegrationAnswer(answer: HttpAnswer, rules: AnswerRules): NotifyResult {
  const verdict = resultOfAnswer(answer);
  if (verdict.ok) return verdict;
  const retry = verdict.retry || (rules.retryCodes?.includes(answer.status) ?? false);
  if (rules.details === undefined) return { ...verdict, retry };
  const details = rules.details(answer);
  return { ...verdict, retry, error: `unexpected status code ${answer.status}${details === '' ? '' : `: ${details}`}` };
}

/** POSTs `payload` as Go-encoded JSON; the answer, or the result of a send that got none. */
export async function postJson(sender: HttpSender, url: string, payload: unknown, request: NotifyRequest, timeoutMs: number): Promise<HttpAnswer | NotifyResult> {
  try {
    return await sender.post({ url, body: goJson(payload), headers: { 'Content-Type': 'application/json' }, signal: request.signal, timeoutMs });
  } catch (error) {
    return resultOfError(error, request.signal);
  }
}

export function isAnswer(outcome: HttpAnswer | NotifyResult): outcome is HttpAnswer {
  return 'status' in outcome;
}
