/** An API opened without holding up the API thread's start, against the thread's real router. */
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { openInBackground, type OpenedApi, type RetryDelays } from '../../../../src/app/apis/open-in-background.js';
import { ALERTS_MANIFEST } from '../../../../src/alerts/manifest.js';
import { httpStatusOf, ServiceError } from '../../../../src/errors/index.js';
import { ApiRouter, type ApiDefinition } from '../../../../src/transports/http/handoff/index.js';
import { deferred } from '../../../support/deferred.js';
import { recordingLogger, type LogRecord } from '../../../support/recording-logger.js';

const TITLE = 'the alert API';

const ALERTS_API: ApiDefinition = {
  name: ALERTS_MANIFEST.name,
  routes: [{ method: 'GET', path: '/-/healthy', handle: () => ({ status: 200, body: 'OK' }) }],
  notFound: () => new ServiceError('AM_NOT_FOUND', 'not found'),
  methodNotAllowed: () => new ServiceError('AM_METHOD_NOT_ALLOWED', 'method not allowed'),
  internalError: 'AM_INTERNAL',
};

/** An opened alert API that counts its closes. */
function openedApi(loaded?: Promise<void>): OpenedApi & { closes: number } {
  const api = {
    api: ALERTS_API,
    ...(loaded === undefined ? {} : { loaded }),
    closes: 0,
    close: async () => void api.closes++,
  };
  return api;
}

/** What `/-/healthy` gets from the router: its status, and the refusal's message if refused. */
function healthy(router: ApiRouter): { status: number; message?: string } {
  const match = router.match(ALERTS_MANIFEST.name, 'GET', '/-/healthy');
  return match.found ? { status: 200 } : { status: httpStatusOf(match.error.code), message: match.error.message };
}

function start(t: Test, open: () => Promise<OpenedApi>, retry?: RetryDelays) {
  const router = new ApiRouter();
  const logs: LogRecord[] = [];
  let opened = 0;
  const background = openInBackground({
    manifest: ALERTS_MANIFEST,
    title: TITLE,
    open,
    router,
    logger: recordingLogger(logs),
    onOpened: () => void opened++,
    ...(retry === undefined ? {} : { retry }),
  });
  t.teardown(() => background.close());
  return { router, logs, background, opened: () => opened };
}

/** Waits until `check` holds, a turn of the event loop at a time. */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(1);
  }
}

t.test('until it opens, its paths answer its 503: starting', async (t) => {
  const { router } = start(t, () => new Promise<OpenedApi>(() => undefined));
  t.same(healthy(router), { status: 503, message: `${TITLE} is starting; try again` });
});

t.test('it routes as soon as it opens, and is reported opened once its state has loaded', async (t) => {
  const opening = deferred<OpenedApi>();
  const loaded = deferred<void>();
  const { router, logs, opened } = start(t, () => opening.promise);
  opening.resolve(openedApi(loaded.promise));
  await until('the API to route', () => healthy(router).status === 200);
  t.equal(opened(), 0, 'not reported opened while its state loads');
  loaded.resolve();
  await until('the API to be reported opened', () => opened() > 0);
  t.equal(opened(), 1);
  t.same(logs, [{ level: 'info', msg: `${TITLE} open`, fields: { api: 'alerts' } }]);
});

t.test('an API without a state to load is reported opened when it opens', async (t) => {
  const { router, opened } = start(t, async () => openedApi());
  await until('the API to be reported opened', () => opened() > 0);
  t.same(healthy(router), { status: 200 });
});

t.test('a state that fails to load leaves it routed but never reported opened', async (t) => {
  const loaded = deferred<void>();
  const { router, opened } = start(t, async () => openedApi(loaded.promise));
  await until('the API to route', () => healthy(router).status === 200);
  loaded.reject(new Error('disk gone'));
  // What settles on the rejection has run by the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(opened(), 0);
  t.same(healthy(router), { status: 200 });
});

t.test('an open that fails answers 503 naming the failure, and is tried again, waiting twice as long each time', async (t) => {
  const failures = ['config file missing', 'config file missing', 'database down', 'database down'];
  let attempts = 0;
  const { router, logs, opened } = start(
    t,
    async () => {
      const failure = failures[attempts++];
      if (failure !== undefined) throw new Error(failure);
      return openedApi();
    },
    { firstMs: 2, maxMs: 6 },
  );
  await until('the first failure', () => attempts === 1 && logs.length === 1);
  t.same(healthy(router), { status: 503, message: `${TITLE} is unavailable: config file missing` });
  await until('the API to open at its fifth attempt', () => opened() > 0);
  t.equal(attempts, 5);
  t.same(
    logs.filter((l) => l.level === 'error'),
    [
      { error: 'config file missing', retryInMs: 2 },
      { error: 'config file missing', retryInMs: 4 },
      { error: 'database down', retryInMs: 6 },
      { error: 'database down', retryInMs: 6 },
    ].map((fields) => ({ level: 'error', msg: `${TITLE} did not open; its requests get 503 until it does`, fields })),
  );
  t.same(healthy(router), { status: 200 });
});

t.test('close() while an open is under way closes the API it then gets, and never routes it', async (t) => {
  const opening = deferred<OpenedApi>();
  const { router, background, opened } = start(t, () => opening.promise);
  await background.close();
  const api = openedApi();
  opening.resolve(api);
  await until('the late API to be closed', () => api.closes > 0);
  t.equal(api.closes, 1);
  t.same(healthy(router), { status: 503, message: `${TITLE} is starting; try again` });
  t.equal(opened(), 0);
});

t.test('close() stops the retries of an API that does not open', async (t) => {
  let attempts = 0;
  const { logs, background } = start(
    t,
    async () => {
      attempts++;
      throw new Error('database down');
    },
    { firstMs: 5, maxMs: 5 },
  );
  await until('the second attempt', () => attempts === 2);
  await background.close();
  const after = attempts;
  // Ten retry delays: attempts would go on every 5 ms.
  await sleep(50);
  t.equal(attempts, after, 'no attempt after close');
  t.ok(logs.length <= after, 'nothing more logged');
});

t.test('close() closes the API it opened', async (t) => {
  const api = openedApi();
  const { background, opened } = start(t, async () => api);
  await until('the API to be reported opened', () => opened() > 0);
  await background.close();
  t.equal(api.closes, 1);
});
