/** The front's end of the hand-off over a real MessageChannel: limits, replies and a vanished API thread. */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import t from 'tap';
import { ApiThreadClient, type ForwardedReply, type ForwardedRequest } from '../../../../src/transports/http/handoff/index.js';

function request(body = new ArrayBuffer(0)): Omit<ForwardedRequest, 'id'> {
  return { api: 'alerts', method: 'GET', url: '/-/healthy', query: '', headers: [['host', 'x']], body };
}

function nextMessage(port: MessagePort): Promise<ForwardedRequest> {
  return new Promise((resolve) => port.once('message', resolve));
}

t.test('a reply reaches the request it answers, matched by id', async (t) => {
  const { port1, port2 } = new MessageChannel();
  const client = new ApiThreadClient(8);
  client.attach(port1);
  const replies: Array<ForwardedReply | undefined> = [];
  const received = nextMessage(port2);
  t.equal(client.send(request(new TextEncoder().encode('body').buffer as ArrayBuffer), (r) => replies.push(r)), 'sent');
  const forwarded = await received;
  t.equal(new TextDecoder().decode(forwarded.body), 'body', 'the body travels');
  t.equal(client.pending, 1);
  const answered = new Promise<void>((resolve) => port1.once('message', () => setImmediate(resolve)));
  port2.postMessage({ id: forwarded.id, status: 200, headers: [], body: 'OK' } satisfies ForwardedReply);
  await answered;
  t.same(replies, [{ id: forwarded.id, status: 200, headers: [], body: 'OK' }]);
  t.equal(client.pending, 0);
  client.close();
  port2.close();
});

t.test('more than maxPending waiting requests are refused at once', async (t) => {
  const { port1, port2 } = new MessageChannel();
  const client = new ApiThreadClient(2);
  client.attach(port1);
  t.equal(client.send(request(), () => {}), 'sent');
  t.equal(client.send(request(), () => {}), 'sent');
  t.equal(client.send(request(), () => {}), 'overloaded', 'the third waits for nobody');
  client.close();
  port2.close();
});

t.test('without an API thread requests are unavailable; waiting ones get undefined when it goes', async (t) => {
  const client = new ApiThreadClient(8);
  t.equal(client.send(request(), () => {}), 'unavailable', 'not attached yet');
  const { port1, port2 } = new MessageChannel();
  client.attach(port1);
  const outcome = new Promise<ForwardedReply | undefined>((resolve) => client.send(request(), resolve));
  port2.close();
  t.equal(await outcome, undefined, 'the waiting request is told');
  t.equal(client.send(request(), () => {}), 'unavailable', 'and later ones too');
});

t.test('a new port replaces the old one', async (t) => {
  const client = new ApiThreadClient(8);
  const first = new MessageChannel();
  client.attach(first.port1);
  const waiting = new Promise<ForwardedReply | undefined>((resolve) => client.send(request(), resolve));
  const second = new MessageChannel();
  client.attach(second.port1);
  t.equal(await waiting, undefined, 'a request waiting on the old API thread fails');
  const received = nextMessage(second.port2);
  t.equal(client.send(request(), () => {}), 'sent');
  t.equal((await received).url, '/-/healthy', 'the new API thread gets the next one');
  client.close();
  first.port2.close();
  second.port2.close();
});
