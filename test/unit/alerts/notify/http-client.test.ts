/**
 * How notifications go out over HTTP, per an integration's `http_config`: TLS to a receiver
 * with its own CA (refused without it, taken with `ca_file` or `insecure_skip_verify`, client
 * certificates), a proxy (`proxy_url`, plain requests and CONNECT for TLS), the Authorization it
 * sends, and Go's redirect rules. Real servers on 127.0.0.1.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { defaultHttpConfig, type HttpConfig } from '../../../../src/alerts/config/http-config.js';
import { createHttpSender } from '../../../../src/alerts/notify/http-client.js';
import { resultOfError } from '../../../../src/alerts/notify/http-sender.js';
import { generateCerts } from '../../../support/certs.js';
import type { Teardown } from '../../../support/teardown.js';
import { tempDir } from '../../../support/temp-dir.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  clientCert: boolean;
}

async function listen(t: Teardown, server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as AddressInfo).port;
}

/** A receiver recording what it gets; `answer` picks the status and headers. */
function receiver(seen: Seen[], answer: (req: http.IncomingMessage) => { status: number; headers?: Record<string, string> } = () => ({ status: 200 })) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, clientCert: (req.socket as { authorized?: boolean }).authorized === true });
      const { status, headers } = answer(req);
      res.writeHead(status, headers).end('ok');
    });
  };
}

const config = (overrides: Partial<HttpConfig>): HttpConfig => ({ ...defaultHttpConfig(), ...overrides });
const post = (url: string) => ({ url, body: '{"a":1}', headers: { 'Content-Type': 'application/json' }, signal: new AbortController().signal });

t.test('TLS: a receiver with its own CA is refused without ca_file, taken with it, or with insecure_skip_verify; a client certificate is presented', async (t) => {
  const certs = await generateCerts(t);
  const seen: Seen[] = [];
  const port = await listen(t, https.createServer({ cert: certs.server.cert, key: certs.server.key, ca: certs.ca.cert, requestCert: true, rejectUnauthorized: false }, receiver(seen)));
  const url = `https://127.0.0.1:${port}/hook`;
  const signal = new AbortController().signal;
  const refused = await createHttpSender(config({}), '/').post(post(url)).catch((error: unknown) => resultOfError(error, signal));
  t.match(refused, { ok: false, retry: true, reason: 'other' }, 'an unknown CA fails the send, and it is retried');
  const withCa = await createHttpSender(config({ tls: { ...defaultHttpConfig().tls, caFile: certs.ca.certFile, certFile: certs.clientEnvoy.certFile, keyFile: certs.clientEnvoy.keyFile } }), '/').post(post(url));
  t.equal(withCa.status, 200, 'ca_file makes the receiver trusted');
  t.equal(seen[0]?.clientCert, true, 'cert_file and key_file are presented as the client certificate');
  const skipping = await createHttpSender(config({ tls: { ...defaultHttpConfig().tls, insecureSkipVerify: true } }), '/').post(post(url));
  t.equal(skipping.status, 200, 'insecure_skip_verify takes any certificate');
  const dir = await tempDir(t, 'rl-http-client-');
  writeFileSync(join(dir, 'ca.pem'), certs.ca.cert);
  const relative = await createHttpSender(config({ tls: { ...defaultHttpConfig().tls, caFile: 'ca.pem', serverName: 'localhost' } }), dir).post(post(url));
  t.equal(relative.status, 200, 'a relative ca_file is read from the configuration directory; server_name is the name checked');
});

t.test('proxy_url: plain requests go to the proxy with the absolute URL; TLS goes through CONNECT', async (t) => {
  const certs = await generateCerts(t);
  const seen: Seen[] = [];
  const plainPort = await listen(t, http.createServer(receiver(seen)));
  const tlsPort = await listen(t, https.createServer({ cert: certs.server.cert, key: certs.server.key }, receiver(seen)));
  const proxied: string[] = [];
  const proxy = http.createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    req.pipe(http.request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: req.headers }, (upstream) => upstream.pipe(res.writeHead(upstream.statusCode ?? 502, upstream.headers))));
  });
  // A tunnel's sockets leave the server's keeping: closed here at the end, or the server would wait for them.
  const tunnels = new Set<net.Socket>();
  proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket) => {
    proxied.push(`CONNECT ${req.url}`);
    tunnels.add(socket);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      tunnels.add(upstream);
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
  });
  const proxyPort = await listen(t, proxy);
  // Teardowns run last registered first: the tunnels go before the proxy closes.
  t.teardown(() => tunnels.forEach((socket) => socket.destroy()));
  const sender = createHttpSender(config({ proxyUrl: `http://127.0.0.1:${proxyPort}`, tls: { ...defaultHttpConfig().tls, caFile: certs.ca.certFile } }), '/');
  t.equal((await sender.post(post(`http://127.0.0.1:${plainPort}/plain`))).status, 200);
  t.equal((await sender.post(post(`https://127.0.0.1:${tlsPort}/tls`))).status, 200);
  t.same(proxied, [`POST http://127.0.0.1:${plainPort}/plain`, `CONNECT 127.0.0.1:${tlsPort}`], 'both went through the proxy');
  t.same(
    seen.map((s) => [s.url, s.body]),
    [
      ['/plain', '{"a":1}'],
      ['/tls', '{"a":1}'],
    ],
    'and reached the receivers',
  );
});

t.test("Authorization: basic auth, an authorization type, a bearer token from a file, read at each send; the user agent is Alertmanager's", async (t) => {
  const seen: Seen[] = [];
  const url = `http://127.0.0.1:${await listen(t, http.createServer(receiver(seen)))}/hook`;
  const dir = await tempDir(t, 'rl-http-auth-');
  writeFileSync(join(dir, 'password'), 'secret\n');
  writeFileSync(join(dir, 'token'), 'first\n');
  await createHttpSender(config({ basicAuth: { username: 'am', usernameFile: '', password: '', passwordFile: 'password' } }), dir).post(post(url));
  await createHttpSender(config({ authorization: { type: 'Token', credentials: 'abc', credentialsFile: '' } }), dir).post(post(url));
  const bearer = createHttpSender(config({ bearerTokenFile: join(dir, 'token') }), dir);
  await bearer.post(post(url));
  writeFileSync(join(dir, 'token'), 'rotated\n');
  await bearer.post(post(url));
  t.same(
    seen.map((s) => s.headers.authorization),
    [`Basic ${Buffer.from('am:secret').toString('base64')}`, 'Token abc', 'Bearer first', 'Bearer rotated'],
  );
  t.match(seen[0]?.headers['user-agent'], /^Alertmanager\/0\.25\.0/);
  t.equal(seen[0]?.headers['content-type'], 'application/json');
});

t.test("redirects: 307 and 308 repeat the POST, 301-303 become a GET; follow_redirects: false answers the 3xx; ten at most", async (t) => {
  const seen: Seen[] = [];
  const port = await listen(
    t,
    http.createServer(
      receiver(seen, (req) => {
        const hop = /^\/(\d+)\/(\d+)$/.exec(req.url ?? '');
        if (hop === null) return { status: 200 };
        const [status, left] = [Number(hop[1]), Number(hop[2])];
        return left === 0 ? { status: 200 } : { status, headers: { Location: `/${status}/${left - 1}` } };
      }),
    ),
  );
  const base = `http://127.0.0.1:${port}`;
  const sender = createHttpSender(config({}), '/');
  t.equal((await sender.post(post(`${base}/307/1`))).status, 200);
  t.same(
    seen.map((s) => [s.method, s.url, s.body]),
    [
      ['POST', '/307/1', '{"a":1}'],
      ['POST', '/307/0', '{"a":1}'],
    ],
    '307 repeats the POST with its body',
  );
  seen.length = 0;
  await sender.post(post(`${base}/302/1`));
  t.same(
    seen.map((s) => [s.method, s.url, s.body]),
    [
      ['POST', '/302/1', '{"a":1}'],
      ['GET', '/302/0', ''],
    ],
    '302 becomes a GET without a body',
  );
  seen.length = 0;
  const unfollowed = await createHttpSender(config({ followRedirects: false }), '/').post(post(`${base}/307/1`));
  t.equal(unfollowed.status, 307, 'follow_redirects: false answers the redirect itself');
  await t.rejects(sender.post(post(`${base}/307/20`)), /stopped after 10 redirects/, 'a redirect loop ends');
});
