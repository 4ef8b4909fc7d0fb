/**
 * One request through each target before and after its load, checking what the load tools
 * cannot: the reply body, and for gRPC the `grpc-status` trailer (h2load only sees HTTP 200).
 * The gRPC probe sends exactly the bytes h2load sends.
 */
import { connect } from 'node:http2';
import { decodeRateLimitResponse } from '../src/ratelimit/grpc/index.js';
import { BENCH_BODY } from '../bench/bench-request.js';
import { GRPC_PATH } from './grpc-frame.js';

/** Resolves when `/json` answers 200 with overallCode OK; rejects with what it got otherwise. */
export async function probeHttp(port: number): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/json`, { method: 'POST', body: BENCH_BODY, headers: { 'content-type': 'application/json' } });
  const text = await res.text();
  const body = JSON.parse(text) as { overallCode?: string };
  if (res.status !== 200 || body.overallCode !== 'OK') throw new Error(`HTTP probe got ${res.status} ${text}`);
}

/** Resolves when ShouldRateLimit answers grpc-status 0 with overall_code OK. */
export function probeGrpc(port: number, frame: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://127.0.0.1:${port}`);
    const fail = (error: Error) => {
      session.destroy();
      reject(error);
    };
    session.once('error', fail);
    const stream = session.request({ ':method': 'POST', ':path': GRPC_PATH, 'content-type': 'application/grpc', te: 'trailers' });
    const chunks: Buffer[] = [];
    let httpStatus = 0;
    let grpcStatus: string | undefined;
    stream.on('response', (headers) => {
      httpStatus = Number(headers[':status']);
      grpcStatus ??= headers['grpc-status'] as string | undefined; // trailers-only answer
    });
    stream.on('trailers', (trailers) => (grpcStatus = trailers['grpc-status'] as string | undefined));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('error', fail);
    stream.once('end', () => {
      session.close();
      const body = Buffer.concat(chunks);
      if (httpStatus !== 200 || grpcStatus !== '0' || body.length < 5) {
        reject(new Error(`gRPC probe got HTTP ${httpStatus}, grpc-status ${grpcStatus}, ${body.length} body bytes`));
        return;
      }
      const reply = decodeRateLimitResponse(body.subarray(5));
      if (reply['overallCode'] !== 'OK') reject(new Error(`gRPC probe got ${JSON.stringify(reply)}`));
      else resolve();
    });
    stream.end(frame);
  });
}
