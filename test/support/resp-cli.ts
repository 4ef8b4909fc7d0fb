/**
 * What `redis-cli -e <flags> <command>` prints, without starting redis-cli: a test's look at a
 * Redis server used to cost a redis-cli process each (about 15 ms of CPU on an idle host, 27 in a
 * full test run, 900 calls a run). The answer is the one redis-cli prints when its output is not
 * a terminal (its raw form): strings as they are, integers in decimal, nil as nothing, arrays an
 * element to a line. Like redis-cli, each call opens a connection of its own and closes it after
 * the answer, so what a test sees of the server's clients is what it saw with redis-cli.
 *
 * It reads the flags the test helpers give redis-cli: `-h`, `-p`, `-s`, `--tls` with `--cacert`,
 * `--cert` and `--key`, `--user` (the password comes as REDISCLI_AUTH does, beside the flags),
 * `-c` (follow MOVED and ASK), and `--scan --pattern P`. Anything else is refused, so a helper
 * that needs another mode runs redis-cli itself.
 */
import { readFileSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** How to reach a server, from redis-cli's flags. */
interface Endpoint {
  host: string;
  port: number;
  socketPath?: string;
  tls?: { ca: Buffer; cert?: Buffer; key?: Buffer };
}

interface Invocation {
  endpoint: Endpoint;
  user?: string;
  /** `-c`: follow the cluster's redirections. */
  cluster: boolean;
  /** `--scan --pattern P`: every key matching P, found with SCAN. */
  scanPattern?: string;
  command: string[];
}

/** A reply in RESP2, the protocol redis-cli speaks by default. */
type Reply =
  | { kind: 'status' | 'error' | 'bulk'; text: string }
  | { kind: 'integer'; value: string }
  | { kind: 'nil' }
  | { kind: 'array'; items: Reply[] };

const MAX_REDIRECTIONS = 5;

/** Runs `args` with `flags` as redis-cli would and resolves with its output, trimmed; rejects on an error reply. */
export async function respCli(flags: readonly string[], password: string | undefined, args: readonly string[], timeoutMs: number): Promise<string> {
  const invocation = parseInvocation([...flags, ...args]);
  const shown = [...flags, ...args].join(' ');
  const deadline = Date.now() + timeoutMs;
  if (invocation.scanPattern !== undefined) {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const reply = await call(invocation.endpoint, invocation.user, password, ['SCAN', cursor, 'MATCH', invocation.scanPattern], deadline, shown);
      if (reply.kind !== 'array' || reply.items.length !== 2) throw new Error(`${shown}: SCAN answered ${format(reply)}`);
      cursor = format(reply.items[0] as Reply);
      keys.push(...(reply.items[1] as Extract<Reply, { kind: 'array' }>).items.map(format));
    } while (cursor !== '0');
    return keys.join('\n').trim();
  }
  let endpoint = invocation.endpoint;
  let asking = false;
  for (let redirections = 0; ; redirections++) {
    const reply = await call(endpoint, invocation.user, password, invocation.command, deadline, shown, asking);
    const redirection = invocation.cluster && reply.kind === 'error' ? /^(MOVED|ASK) \d+ (\S+):(\d+)$/.exec(reply.text) : null;
    if (redirection !== null && redirections < MAX_REDIRECTIONS) {
      endpoint = { ...endpoint, host: redirection[2] as string, port: Number(redirection[3]) };
      asking = redirection[1] === 'ASK';
      continue;
    }
    if (reply.kind === 'error') throw new Error(`redis-cli ${shown}: ${reply.text}`);
    return format(reply).trim();
  }
}

function parseInvocation(words: readonly string[]): Invocation {
  const endpoint: Endpoint = { host: '127.0.0.1', port: 6379 };
  const tlsFiles: { ca?: string; cert?: string; key?: string } = {};
  let tls = false;
  let user: string | undefined;
  let cluster = false;
  let scan = false;
  let scanPattern = '*';
  let index = 0;
  const value = () => {
    const next = words[++index];
    if (next === undefined) throw new Error(`redis-cli flag ${words[index - 1]} needs a value`);
    return next;
  };
  for (; index < words.length && (words[index] as string).startsWith('-'); index++) {
    const flag = words[index] as string;
    if (flag === '-e') continue;
    else if (flag === '-h') endpoint.host = value();
    else if (flag === '-p') endpoint.port = Number(value());
    else if (flag === '-s') endpoint.socketPath = value();
    else if (flag === '--tls') tls = true;
    else if (flag === '--cacert') tlsFiles.ca = value();
    else if (flag === '--cert') tlsFiles.cert = value();
    else if (flag === '--key') tlsFiles.key = value();
    else if (flag === '--user') user = value();
    else if (flag === '-c') cluster = true;
    else if (flag === '--scan') scan = true;
    else if (flag === '--pattern') scanPattern = value();
    else throw new Error(`redis-cli flag ${flag} is not spoken here; run redis-cli for it`);
  }
  if (tls) {
    if (tlsFiles.ca === undefined) throw new Error('--tls needs --cacert here');
    endpoint.tls = {
      ca: readFileSync(tlsFiles.ca),
      ...(tlsFiles.cert === undefined ? {} : { cert: readFileSync(tlsFiles.cert) }),
      ...(tlsFiles.key === undefined ? {} : { key: readFileSync(tlsFiles.key) }),
    };
  }
  const command = words.slice(index);
  if (!scan && command.length === 0) throw new Error('no command given');
  return { endpoint, user, cluster, command, ...(scan ? { scanPattern } : {}) };
}

/** One connection: AUTH when there is a password, ASKING after an ASK, the command; closed after its reply. */
async function call(endpoint: Endpoint, user: string | undefined, password: string | undefined, command: readonly string[], deadline: number, shown: string, asking = false): Promise<Reply> {
  const socket = await open(endpoint, deadline);
  try {
    const replies = readReplies(socket, deadline, shown);
    if (password !== undefined) {
      socket.write(encode(user === undefined ? ['AUTH', password] : ['AUTH', user, password]));
      const auth = await replies.next();
      if (auth.kind === 'error') throw new Error(`redis-cli ${shown}: AUTH failed: ${auth.text}`);
    }
    if (asking) {
      socket.write(encode(['ASKING']));
      await replies.next();
    }
    socket.write(encode(command));
    return await replies.next();
  } finally {
    socket.destroy();
  }
}

function open(endpoint: Endpoint, deadline: number): Promise<Socket> {
  const where = endpoint.socketPath ?? `${endpoint.host}:${endpoint.port}`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`Could not connect to Redis at ${where}: no connection before the deadline`));
    }, Math.max(0, deadline - Date.now()));
    const connected = () => {
      clearTimeout(timer);
      resolve(socket);
    };
    const socket: Socket =
      endpoint.socketPath !== undefined
        ? connectTcp({ path: endpoint.socketPath }, connected)
        : endpoint.tls !== undefined
          ? // redis-cli checks the server's chain against --cacert, not the name in its certificate.
            connectTls({ host: endpoint.host, port: endpoint.port, ...endpoint.tls, checkServerIdentity: () => undefined }, connected)
          : connectTcp({ host: endpoint.host, port: endpoint.port }, connected);
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const reason = error.code === 'ECONNREFUSED' ? 'Connection refused' : error.message;
      reject(new Error(`Could not connect to Redis at ${where}: ${reason}`));
    });
  });
}

/** The replies arriving on `socket`, one per call of `next`. */
function readReplies(socket: Socket, deadline: number, shown: string): { next(): Promise<Reply> } {
  let buffered: Buffer = Buffer.alloc(0);
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    wake?.();
  });
  const fail = (error: Error) => {
    failure ??= error;
    wake?.();
  };
  socket.on('error', (error) => fail(new Error(`redis-cli ${shown}: ${error.message}`)));
  socket.on('close', () => fail(new Error(`redis-cli ${shown}: the server closed the connection`)));
  const timer = setTimeout(() => fail(new Error(`redis-cli ${shown}: no answer within the time given`)), Math.max(0, deadline - Date.now()));
  socket.once('close', () => clearTimeout(timer));
  return {
    async next() {
      for (;;) {
        const parsed = parseReply(buffered, 0);
        if (parsed !== undefined) {
          buffered = buffered.subarray(parsed.end);
          return parsed.reply;
        }
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    },
  };
}

function encode(command: readonly string[]): Buffer {
  const parts = [`*${command.length}\r\n`];
  for (const word of command) parts.push(`$${Buffer.byteLength(word)}\r\n${word}\r\n`);
  return Buffer.from(parts.join(''));
}

/** The reply starting at `start`, or undefined while it has not all arrived. */
function parseReply(buffer: Buffer, start: number): { reply: Reply; end: number } | undefined {
  const lineEnd = buffer.indexOf('\r\n', start);
  if (lineEnd < 0) return undefined;
  const line = buffer.toString('utf8', start + 1, lineEnd);
  const next = lineEnd + 2;
  switch (String.fromCharCode(buffer[start] as number)) {
    case '+':
      return { reply: { kind: 'status', text: line }, end: next };
    case '-':
      return { reply: { kind: 'error', text: line }, end: next };
    case ':':
      return { reply: { kind: 'integer', value: line }, end: next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { reply: { kind: 'nil' }, end: next };
      if (buffer.length < next + length + 2) return undefined;
      return { reply: { kind: 'bulk', text: buffer.toString('utf8', next, next + length) }, end: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { reply: { kind: 'nil' }, end: next };
      const items: Reply[] = [];
      let at = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, at);
        if (item === undefined) return undefined;
        items.push(item.reply);
        at = item.end;
      }
      return { reply: { kind: 'array', items }, end: at };
    }
    default:
      throw new Error(`not a RESP reply: ${JSON.stringify(buffer.toString('utf8', start, Math.min(buffer.length, start + 40)))}`);
  }
}

/** redis-cli's raw form of a reply. */
function format(reply: Reply): string {
  switch (reply.kind) {
    case 'status':
    case 'error':
    case 'bulk':
      return reply.text;
    case 'integer':
      return reply.value;
    case 'nil':
      return '';
    case 'array':
      return reply.items.map(format).join('\n');
  }
}
