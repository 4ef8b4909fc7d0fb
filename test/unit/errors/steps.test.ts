/**
 * The steps API operations stop with: a step that fails ends its `attempt`, which hands back that
 * failure as a value; anything else thrown is not swallowed.
 */
import t from 'tap';
import { attempt, ServiceError, unwrap } from '../../../src/errors/index.js';

const oddError = (n: number) => new ServiceError('SC_BAD_REQUEST', `${n} is odd`, { param: 'n' });
/** A step that can fail in an expected way. */
const half = (n: number): number | ServiceError => (n % 2 === 0 ? n / 2 : oddError(n));

t.test('steps that succeed run through and the value comes back', async (t) => {
  t.equal(
    attempt(() => unwrap(half(8)) + unwrap(half(4))),
    6,
  );
  t.equal(await attempt(async () => unwrap(half(await Promise.resolve(10)))), 5);
});

t.test('a failing step ends the attempt with its own error as the value; no later step runs', async (t) => {
  const refused = oddError(3);
  const ran: string[] = [];
  const outcome = attempt(() => {
    ran.push('first');
    const value = unwrap<number>(refused);
    ran.push('after the failure');
    return value;
  });
  t.equal(outcome, refused, 'the very error the step gave');
  t.same(ran, ['first']);
});

t.test('asynchronous steps: the promise resolves to the error, it does not reject', async (t) => {
  const refused = oddError(7);
  let after = false;
  const outcome = attempt(async () => {
    const value = unwrap(await Promise.resolve<number | ServiceError>(refused));
    after = true;
    return value;
  });
  t.equal(await outcome, refused);
  t.notOk(after);
});

t.test('an unexpected exception is not swallowed: thrown again, or the promise rejects with it', async (t) => {
  t.throws(() => attempt(() => unwrap(half(2)) + (JSON.parse('{') as number)), SyntaxError);
  await t.rejects(
    attempt(async () => {
      unwrap(half(2));
      await Promise.resolve();
      throw new Error('the database is closed');
    }),
    { message: 'the database is closed' },
  );
});

t.test('a ServiceError thrown by hand is not a stop: only unwrap stops an attempt', async (t) => {
  const thrown = oddError(9);
  t.throws(() =>
    attempt(() => {
      throw thrown;
    }),
  );
  await t.rejects(
    attempt(async () => {
      throw thrown;
    }),
  );
});

t.test('a returned ServiceError is a value like any other', async (t) => {
  const refused = oddError(5);
  t.equal(
    attempt(() => refused),
    refused,
  );
});

t.test('an inner attempt keeps its failure: the outer one goes on unless it unwraps it', async (t) => {
  const steps: string[] = [];
  const outcome = attempt(() => {
    const inner = attempt(() => unwrap(half(1)));
    steps.push(inner instanceof ServiceError ? `inner failed: ${inner.message}` : 'inner passed');
    return unwrap(half(6));
  });
  t.equal(outcome, 3);
  t.same(steps, ['inner failed: 1 is odd']);
});

t.test('unwrap outside any attempt surfaces as an unexpected exception that says so', async (t) => {
  const refused = oddError(11);
  let caught: unknown;
  try {
    unwrap(refused);
  } catch (error) {
    caught = error;
  }
  t.notOk(caught instanceof ServiceError, 'not the error itself, which a caller could mistake for an answer');
  t.notOk(caught instanceof Error, 'no stack trace is paid for');
  t.equal(String(caught), 'unwrap() outside attempt(): SC_BAD_REQUEST: 11 is odd');
});
