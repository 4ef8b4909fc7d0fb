/**
 * The debug HTTP listener (DEBUG_HOST:DEBUG_PORT, as upstream's): `/`, `/rlconfig`, `/stats` and
 * the `/debug/pprof/*` profiling endpoints, re-done with Node's tooling. Built on node:http
 * because it is off the hot path. Errors and client disconnects are logged, never thrown.
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import v8 from 'node:v8';

import { renderHttpError, ServiceError } from '../../errors/index.js';

import {
  CaptureAborted,
  captureCpuProfile,
  captureTrace,
  release,
  tryAcquire,
  type CaptureKind,
} from './captures.js';
import { renderStats } from './stats-text.js';
import { captureAccess, isLoopbackHost, loggableTarget, type AccessRefusals, type CaptureAccess } from './capture-access.js';

export interface DebugLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn?(msg: string, fields?: Record<string, unknown>): void;
}

export interface DebugServerOptions {
  host: string;
  /** 0 picks a free port; DebugServer.port then tells which. */
  port: number;
  /** Every statistic as [name, value], e.g. `() => store.snapshot()`. */
  /** May be asynchronous: statistics of other threads are collected first. */
  stats: () => Array<[string, number]> | Promise<Array<[string, number]>>;
  /** The `/rlconfig` text, in upstream's format; '' when no configuration is loaded. */
  rlconfig: () => string;
  /** The `/metrics` page in the Prometheus exposition format. */
  metrics: () => Promise<MetricsPage>;
  /** DEBUG_TOKEN: profiles, heap snapshots and traces need it; '' needs none on loopback (capture-access.ts). */
  token?: string;
  logger?: DebugLogger;
  /** Endpoints an API adds to the debug port, answered in JSON (the decision API's `/counters`). */
  jsonRoutes?: readonly DebugJsonRoute[];
}

/** An endpoint that answers a JSON value, or a catalogue error in its own body form. */
export interface DebugJsonRoute {
  path: string;
  method: 'GET' | 'POST';
  /** One line for the `/` index. */
  description: string;
  /** Guarded as the captures are (DEBUG_TOKEN, or loopback without one), refused in these words. */
  guard?: AccessRefusals;
  handle(query: URLSearchParams): Promise<unknown>;
}

export interface MetricsPage {
  contentType: string;
  body: string;
}

export interface DebugServer {
  /** The port actually bound. */
  readonly port: number;
  /** Stops listening, aborts running captures and drops open connections. */
  close(): Promise<void>;
}

export const CPU_PROFILE_DEFAULT_SECONDS = 30;
export const CPU_PROFILE_MAX_SECONDS = 300;
export const TRACE_DEFAULT_SECONDS = 1;
export const TRACE_MAX_SECONDS = 60;
/** The categories `node --trace-events-enabled` records. */
export const TRACE_DEFAULT_CATEGORIES: readonly string[] = ['node', 'node.async_hooks', 'v8'];

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json';
const READ_METHODS = ['GET', 'HEAD'] as const;
/** Captures are expensive: HEAD would run one only to throw the body away. */
const CAPTURE_METHODS = ['GET'] as const;

interface RouteContext {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  query: URLSearchParams;
  /** Aborted when the client goes away or the server closes. */
  signal: AbortSignal;
}

interface Route {
  methods: readonly string[];
  /** A capture of the process's memory or activity: DEBUG_TOKEN guards it. */
  capture?: true;
  /** Another endpoint guarded as the captures are, in its own words. */
  guard?: CaptureAccess;
  /** One line for the `/` index. */
  description: string;
  /** A returned error is the answer (nothing may have been written yet). */
  handle(ctx: RouteContext): void | ServiceError | Promise<void | ServiceError>;
}

function sendText(
  res: http.ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': TEXT,
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(body);
}

/** A catalogue error in the debug server's form, Go's http.Error: the message and a newline as text/plain. */
function sendError(res: http.ServerResponse, error: ServiceError): void {
  const reply = renderHttpError(error);
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'Content-Length': String(Buffer.byteLength(reply.body)) };
  for (const [name, value] of reply.headers) headers[name] = value;
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}

function sendJson(res: http.ServerResponse, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

function sendJsonAttachment(res: http.ServerResponse, filename: string, body: string): void {
  sendJson(res, body, { 'Content-Disposition': `attachment; filename="${filename}"` });
}

/** Splits a request target into its decoded path and its query; undefined if malformed. */
function parseTarget(
  target: string,
): { path: string; query: { search: string; params: URLSearchParams } } | undefined {
  let raw = target;
  if (!raw.startsWith('/')) {
    // absolute-form (`GET http://host/path`), as a proxy would send
    try {
      const url = new URL(raw);
      raw = url.pathname + url.search;
    } catch {
      return undefined;
    }
  }
  const q = raw.indexOf('?');
  const search = q === -1 ? '' : raw.slice(q);
  let path: string;
  try {
    path = decodeURIComponent(q === -1 ? raw : raw.slice(0, q));
  } catch {
    return undefined;
  }
  return { path, query: { search, params: new URLSearchParams(search) } };
}

/** Go's cleanPath: collapse `//`, resolve `.` and `..`, keep a trailing slash. */
export function cleanPath(path: string): string {
  const rooted = path.startsWith('/') ? path : '/' + path;
  let clean = posix.normalize(rooted);
  if (rooted.endsWith('/') && !clean.endsWith('/')) clean += '/';
  return clean;
}

function redirect(res: http.ServerResponse, location: string): void {
  res.writeHead(301, { Location: location, 'Content-Length': 0 });
  res.end();
}

/**
 * `?seconds=N`: absent or empty gives the default; otherwise a whole number from 1 to max.
 * (Go's pprof silently falls back to the default on bad input; here it is an error.)
 */
export function parseSeconds(raw: string | null, defaultSeconds: number, max: number): number | ServiceError {
  if (raw === null || raw === '') return defaultSeconds;
  const seconds = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > max) {
    return new ServiceError('DBG_BAD_REQUEST', `invalid seconds ${JSON.stringify(raw)}: must be a whole number from 1 to ${max}`);
  }
  return seconds;
}

function parseCategories(raw: string | null): readonly string[] | ServiceError {
  if (raw === null || raw === '') return TRACE_DEFAULT_CATEGORIES;
  const categories = raw.split(',').map((c) => c.trim());
  for (const category of categories) {
    if (!/^[A-Za-z0-9_.*-]+$/.test(category)) {
      return new ServiceError('DBG_BAD_REQUEST', `invalid trace category ${JSON.stringify(category)}`);
    }
  }
  return categories;
}

function busyMessage(kind: CaptureKind): string {
  switch (kind) {
    case 'cpu':
      return 'a CPU profile is already being taken; try again when it has finished';
    case 'heap':
      return 'a heap snapshot is already being taken; try again when it has finished';
    case 'trace':
      return 'a trace is already being recorded; try again when it has finished';
  }
}

/** Runs `fn` holding the process-wide slot for `kind`; a busy slot is answered 409 without running it. */
async function exclusive(kind: CaptureKind, fn: () => Promise<void>): Promise<ServiceError | undefined> {
  if (!tryAcquire(kind)) return new ServiceError('DBG_CAPTURE_BUSY', busyMessage(kind));
  try {
    await fn();
    return undefined;
  } finally {
    release(kind);
  }
}

function hostFor(ctx: RouteContext): string {
  return ctx.req.headers.host ?? 'HOST:PORT';
}

function pprofIndex(host: string): string {
  const base = `http://${host}/debug/pprof`;
  return [
    'Node.js profiling endpoints (they profile the main thread; worker threads are not included).',
    '',
    `/debug/pprof/profile?seconds=N`,
    `    CPU profile sampled for N seconds (default ${CPU_PROFILE_DEFAULT_SECONDS}, ` +
      `1 to ${CPU_PROFILE_MAX_SECONDS}), one at a time.`,
    '    Returns a .cpuprofile: open it in Chrome DevTools (Performance panel, "Load profile")',
    '    or in VS Code.',
    `    curl -o cpu.cpuprofile '${base}/profile?seconds=${CPU_PROFILE_DEFAULT_SECONDS}'`,
    '',
    `/debug/pprof/heap`,
    '    V8 heap snapshot of the main thread. The process pauses while it is taken and the',
    '    snapshot can be larger than the heap itself. Open it in Chrome DevTools',
    '    (Memory panel, "Load").',
    `    curl -o heap.heapsnapshot '${base}/heap'`,
    '',
    `/debug/pprof/trace?seconds=N&categories=a,b`,
    `    Node trace events recorded for N seconds (default ${TRACE_DEFAULT_SECONDS}, ` +
      `1 to ${TRACE_MAX_SECONDS}), one at a time;`,
    `    categories default to ${TRACE_DEFAULT_CATEGORIES.join(',')}.`,
    '    Returns Chrome trace-event JSON: open it in https://ui.perfetto.dev or chrome://tracing.',
    '    Node has no Go execution tracer; this is the nearest equivalent.',
    `    curl -o trace.json '${base}/trace?seconds=${TRACE_DEFAULT_SECONDS}'`,
    '',
    "With DEBUG_TOKEN set, each of them needs it: add -H 'Authorization: Bearer <token>' or &token=<token>.",
    '',
    'Go-only profiles (goroutine, allocs, block, mutex, threadcreate) do not exist in Node.',
    '',
  ].join('\n');
}

type Log = (msg: string, fields?: Record<string, unknown>) => void;

function buildRoutes(options: DebugServerOptions, log: Log): Map<string, Route> {
  const routes = new Map<string, Route>();

  routes.set('/rlconfig', {
    methods: READ_METHODS,
    description: 'print out the currently loaded configuration for debugging',
    handle: ({ res }) => sendText(res, 200, options.rlconfig()),
  });

  routes.set('/stats', {
    methods: READ_METHODS,
    description: 'print out stats (the service statistics and process.* figures)',
    handle: async ({ res }) => sendText(res, 200, renderStats(await options.stats())),
  });

  routes.set('/metrics', {
    methods: READ_METHODS,
    description: 'the statistics as Prometheus metrics (upstream\'s default mapping, or PROMETHEUS_MAPPER_YAML)',
    handle: async ({ res }) => {
      const page = await options.metrics();
      sendText(res, 200, page.body, { 'Content-Type': page.contentType });
    },
  });

  routes.set('/debug/pprof/', {
    methods: READ_METHODS,
    description: 'list the profiling endpoints and how to open their output',
    handle: (ctx) => sendText(ctx.res, 200, pprofIndex(hostFor(ctx))),
  });

  routes.set('/debug/pprof/profile', {
    methods: CAPTURE_METHODS,
    capture: true,
    description:
      `CPU profile as .cpuprofile; ?seconds=N ` +
      `(default ${CPU_PROFILE_DEFAULT_SECONDS}, max ${CPU_PROFILE_MAX_SECONDS})`,
    handle: async ({ res, query, signal }) => {
      const seconds = parseSeconds(
        query.get('seconds'),
        CPU_PROFILE_DEFAULT_SECONDS,
        CPU_PROFILE_MAX_SECONDS,
      );
      if (seconds instanceof ServiceError) return seconds;
      return exclusive('cpu', async () => {
        log('debug server: CPU profile started', { seconds });
        const profile = await captureCpuProfile(seconds, signal);
        const samples = profile.samples?.length ?? 0;
        log('debug server: CPU profile finished', { seconds, samples });
        sendJsonAttachment(res, 'profile.cpuprofile', JSON.stringify(profile));
      });
    },
  });

  routes.set('/debug/pprof/heap', {
    methods: CAPTURE_METHODS,
    capture: true,
    description: 'V8 heap snapshot as .heapsnapshot (pauses the process while it is taken)',
    handle: ({ res }) =>
      exclusive('heap', async () => {
        log('debug server: heap snapshot started');
        const snapshot = v8.getHeapSnapshot();
        res.writeHead(200, {
          'Content-Type': JSON_TYPE,
          'Content-Disposition': 'attachment; filename="heap.heapsnapshot"',
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'no-store',
        });
        await pipeline(snapshot, res);
        log('debug server: heap snapshot sent');
      }),
  });

  routes.set('/debug/pprof/trace', {
    methods: CAPTURE_METHODS,
    capture: true,
    description:
      `Node trace events as Chrome trace JSON; ?seconds=N ` +
      `(default ${TRACE_DEFAULT_SECONDS}, max ${TRACE_MAX_SECONDS})&categories=a,b`,
    handle: async ({ res, query, signal }) => {
      const seconds = parseSeconds(
        query.get('seconds'),
        TRACE_DEFAULT_SECONDS,
        TRACE_MAX_SECONDS,
      );
      if (seconds instanceof ServiceError) return seconds;
      const categories = parseCategories(query.get('categories'));
      if (categories instanceof ServiceError) return categories;
      return exclusive('trace', async () => {
        log('debug server: trace started', { seconds, categories });
        const trace = await captureTrace(seconds, categories, signal);
        log('debug server: trace finished', { seconds, events: trace.traceEvents.length });
        sendJsonAttachment(res, 'trace.json', JSON.stringify(trace));
      });
    },
  });

  for (const json of options.jsonRoutes ?? []) {
    routes.set(json.path, {
      methods: [json.method],
      description: json.description,
      guard: json.guard === undefined ? undefined : captureAccess({ host: options.host, token: options.token ?? '' }, json.guard),
      handle: async ({ res, query }) => {
        const answer = await json.handle(query);
        if (answer instanceof ServiceError) return answer;
        sendJson(res, JSON.stringify(answer, null, 2) + '\n');
      },
    });
  }

  // The root index lists every endpoint, sorted, as upstream prints `path: description`.
  const index = [...routes.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, route]) => `${path}: ${route.description}\n`)
    .join('');
  routes.set('/', {
    methods: READ_METHODS,
    description: 'this list',
    handle: ({ res }) => sendText(res, 200, index),
  });

  return routes;
}

/** Starts the debug server; resolves once it listens (rejects on e.g. EADDRINUSE). */
export function startDebugServer(options: DebugServerOptions): Promise<DebugServer> {
  const logger = options.logger;
  const log: Log = (msg, fields) => {
    if (logger === undefined) return;
    try {
      logger.info(msg, fields);
    } catch {
      // A failing logger must not take the debug server down.
    }
  };
  const routes = buildRoutes(options, log);
  const mayCapture = captureAccess({ host: options.host, token: options.token ?? '' });
  /** One controller per in-flight request, so close() can abort running captures. */
  const inflight = new Set<AbortController>();

  const server = http.createServer((req, res) => {
    const controller = new AbortController();
    inflight.add(controller);
    res.on('close', () => {
      inflight.delete(controller);
      if (!res.writableFinished) {
        log('debug server: client went away before the response was complete', {
          path: loggableTarget(req.url),
        });
        controller.abort();
      }
    });
    res.on('error', (err) => {
      log('debug server: response error', { path: loggableTarget(req.url), error: String(err) });
    });
    req.on('error', (err) => {
      log('debug server: request error', { path: loggableTarget(req.url), error: String(err) });
    });

    void handle(req, res, controller.signal).catch((err: unknown) => {
      // handle() deals with its own errors; this is the last line of defence.
      log('debug server: unexpected error', { path: loggableTarget(req.url), error: String(err) });
      res.destroy();
    });
  });

  async function handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    const target = parseTarget(req.url ?? '/');
    if (target === undefined) {
      sendError(res, new ServiceError('DBG_BAD_REQUEST', 'bad request'));
      return;
    }
    const { path, query } = target;
    const clean = cleanPath(path);
    if (clean !== path) {
      // Go's ServeMux redirects unclean paths (`//stats`, `/a/../stats`) to the clean one.
      redirect(res, encodeURI(clean) + query.search);
      return;
    }
    const route = routes.get(path);
    if (route === undefined) {
      if (path === '/debug/pprof') {
        // ...and a subtree root without its trailing slash.
        redirect(res, '/debug/pprof/' + query.search);
      } else if (path.startsWith('/debug/pprof/')) {
        sendError(res, new ServiceError('DBG_UNKNOWN_PROFILE', 'Unknown profile')); // pprof.Index's answer for other names
      } else {
        sendError(res, new ServiceError('DBG_NOT_FOUND', '404 page not found'));
      }
      return;
    }
    const guard = route.capture === true ? mayCapture : route.guard;
    if (guard !== undefined) {
      const refused = guard(req, query.params);
      if (refused !== undefined) {
        sendError(res, refused);
        return;
      }
    }
    const method = req.method ?? 'GET';
    if (!route.methods.includes(method)) {
      sendError(res, new ServiceError('DBG_METHOD_NOT_ALLOWED', 'Method Not Allowed', { allow: route.methods.join(', ') }));
      return;
    }
    try {
      const refused = await route.handle({ req, res, query: query.params, signal });
      if (refused instanceof ServiceError && !res.headersSent) sendError(res, refused);
    } catch (err) {
      if (err instanceof CaptureAborted || signal.aborted) {
        log('debug server: capture abandoned', { path });
        if (!res.headersSent && !res.destroyed) {
          sendError(res, new ServiceError('DBG_SHUTTING_DOWN', 'debug server is shutting down'));
        }
        return;
      }
      const error = err instanceof Error ? err.message : String(err);
      log('debug server: handler failed', { path, error });
      if (!res.headersSent) {
        sendError(res, new ServiceError('DBG_INTERNAL', `internal error: ${error}`));
      } else {
        res.destroy(); // a partial body must not look complete
      }
    }
  }

  return new Promise<DebugServer>((resolve, reject) => {
    const onListenError = (err: Error): void => {
      reject(err);
    };
    server.once('error', onListenError);
    server.listen(options.port, options.host, () => {
      server.off('error', onListenError);
      server.on('error', (err) => log('debug server: server error', { error: String(err) }));
      const port = (server.address() as AddressInfo).port;
      log('debug server listening', { host: options.host, port });
      if ((options.token ?? '') === '' && !isLoopbackHost(options.host)) {
        logger?.warn?.('the debug port listens beyond loopback without DEBUG_TOKEN: its profiles and heap snapshots answer 403', {
          host: options.host,
          port,
        });
      }
      let closing: Promise<void> | undefined;
      resolve({
        port,
        close(): Promise<void> {
          closing ??= new Promise<void>((done) => {
            for (const controller of inflight) controller.abort();
            server.close(() => {
              log('debug server closed', { port });
              done();
            });
            server.closeAllConnections();
          });
          return closing;
        },
      });
    });
  });
}
