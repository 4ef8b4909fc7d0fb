/**
 * An HTTP endpoint on a free port of 127.0.0.1 that records the body of every request and
 * answers 200: where a real Alertmanager's notifications (webhook, Slack, Teams...) land in tests.
 */
import { createServer } from 'node:http';
import type { Teardown } from './teardown.js';

export interface RecordedRequest {
  path: string;
  userAgent: string | undefined;
  body: string;
}

export interface HttpSink {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
}

export async function startHttpSink(t: Teardown): Promise<HttpSink> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', userAgent: req.headers['user-agent'], body });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise((resolve) => {
        // Alertmanager's HTTP client keeps connections alive; close() alone would wait for them.
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { url: `http://127.0.0.1:${address.port}`, requests };
}
