/**
 * Runs test/support/python/rls_client.py (gRPC C-core via Debian's python3-grpcio) and returns
 * its parsed JSON output. The .py file is not compiled, so it is found in the source tree.
 *
 *   const out = await runPythonClient({ target, mode: 'tls', ca: certs.ca.certFile, calls: [...] });
 */
import { packageFile } from '../../../src/transports/package-files.js';
import { describeFailure, runCommand } from '../command-runner.js';

export const PYTHON = '/usr/bin/python3';
export const RLS_CLIENT_PY = pythonScript('rls_client.py');

/** A script of test/support/python (not compiled: it stays in the source tree). */
export function pythonScript(name: string): string {
  return packageFile(`test/support/python/${name}`);
}

export type PythonCall = { method: 'ShouldRateLimit'; request: unknown } | { method: 'Check'; service: string };

export interface PythonSpec {
  target: string;
  mode: 'plain' | 'tls' | 'mtls';
  ca?: string;
  cert?: string;
  key?: string;
  serverName?: string;
  /** Per-call deadline in seconds. */
  timeout?: number;
  calls: PythonCall[];
}

export type PythonResult =
  | { ok: true; response: Record<string, unknown> }
  | { ok: true; status: string }
  | { ok: false; code: number; codeName: string; details: string };

export interface PythonOutput {
  grpcVersion: string;
  results: PythonResult[];
  stderr: string;
}

export async function runPythonClient(spec: PythonSpec, timeoutMs = 15_000): Promise<PythonOutput> {
  const result = await runCommand(PYTHON, [RLS_CLIENT_PY, JSON.stringify(spec)], { timeoutMs, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
  const { stdout, stderr } = result;
  if (result.code !== 0) throw new Error(`rls_client.py failed: ${describeFailure(result, timeoutMs)}\nstdout: ${stdout}\nstderr: ${stderr}`);
  try {
    const parsed = JSON.parse(stdout) as Omit<PythonOutput, 'stderr'>;
    return { ...parsed, stderr };
  } catch {
    throw new Error(`rls_client.py printed no JSON\nstdout: ${stdout}\nstderr: ${stderr}`);
  }
}
