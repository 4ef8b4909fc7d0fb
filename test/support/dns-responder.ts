/**
 * A tiny authoritative DNS server over UDP for SRV tests (OBJCACHE_SRV with
 * OBJCACHE_SRV_RESOLVER=127.0.0.1:<port>): answers SRV questions for the names it was given,
 * NXDOMAIN for any other name, an empty answer for other types. Encoded by hand (RFC 1035,
 * RFC 2782), no dependency. The answer can be changed while it runs, and it counts questions.
 *
 *   const dns = await startDnsResponder(t);
 *   dns.setSrv('_memcache._tcp.test.local', [{ target: 'localhost', port: 11211 }]);
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import type { Teardown } from './teardown.js';

export interface SrvTarget {
  /** A host name the client can resolve itself (the SRV answer carries names, not addresses). */
  target: string;
  port: number;
  priority?: number;
  weight?: number;
}

const TYPE_SRV = 33;
const CLASS_IN = 1;
const TTL_SECONDS = 0;

export class DnsResponder {
  private readonly records = new Map<string, SrvTarget[]>();
  /** Questions received, by lower-cased name: `srvQuestions(name)` counts those for one name. */
  private readonly questions = new Map<string, number>();

  constructor(
    private readonly socket: Socket,
    readonly port: number,
  ) {
    socket.on('message', (message, remote) => this.answer(message, remote));
  }

  /** `127.0.0.1:<port>`, the form OBJCACHE_SRV_RESOLVER takes. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Replaces the SRV answer for `name` (an empty list answers with no records). */
  setSrv(name: string, targets: SrvTarget[]): void {
    this.records.set(name.toLowerCase(), targets);
  }

  /** SRV questions received for `name` so far. */
  srvQuestions(name: string): number {
    return this.questions.get(name.toLowerCase()) ?? 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private answer(message: Buffer, remote: RemoteInfo): void {
    const question = parseQuestion(message);
    if (question === undefined) return; // not a query we understand: let the client time out
    const { id, flags, name, type, questionBytes } = question;
    const targets = this.records.get(name.toLowerCase());
    if (type === TYPE_SRV) this.questions.set(name.toLowerCase(), (this.questions.get(name.toLowerCase()) ?? 0) + 1);
    const answers = targets !== undefined && type === TYPE_SRV ? targets : [];
    const rcode = targets === undefined ? 3 : 0; // NXDOMAIN for names it does not serve
    const header = Buffer.alloc(12);
    header.writeUInt16BE(id, 0);
    // QR=1, opcode copied, AA=1, RD copied, RA=1.
    header.writeUInt16BE(0x8000 | (flags & 0x7800) | 0x0400 | (flags & 0x0100) | 0x0080 | rcode, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const records = answers.map((srv) => {
      const target = encodeName(srv.target);
      const rdata = Buffer.alloc(6);
      rdata.writeUInt16BE(srv.priority ?? 10, 0);
      rdata.writeUInt16BE(srv.weight ?? 10, 2);
      rdata.writeUInt16BE(srv.port, 4);
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's name at offset 12
      fixed.writeUInt16BE(TYPE_SRV, 2);
      fixed.writeUInt16BE(CLASS_IN, 4);
      fixed.writeUInt32BE(TTL_SECONDS, 6);
      fixed.writeUInt16BE(rdata.length + target.length, 10);
      return Buffer.concat([fixed, rdata, target]);
    });
    this.socket.send(Buffer.concat([header, questionBytes, ...records]), remote.port, remote.address);
  }
}

/** `a.b.c` as length-prefixed labels ending with a zero byte. */
function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter((label) => label !== '');
  return Buffer.concat([...labels.map((label) => Buffer.concat([Buffer.from([Buffer.byteLength(label)]), Buffer.from(label)])), Buffer.from([0])]);
}

/** The first question of a query: its name, type, and its bytes (echoed in the answer). */
function parseQuestion(message: Buffer): { id: number; flags: number; name: string; type: number; questionBytes: Buffer } | undefined {
  if (message.length < 12 || message.readUInt16BE(4) < 1) return undefined;
  const flags = message.readUInt16BE(2);
  if ((flags & 0x8000) !== 0) return undefined; // an answer, not a query
  const labels: string[] = [];
  let at = 12;
  for (;;) {
    const length = message[at];
    if (length === undefined || (length & 0xc0) !== 0) return undefined; // no compression in questions
    at++;
    if (length === 0) break;
    labels.push(message.subarray(at, at + length).toString('latin1'));
    at += length;
  }
  if (at + 4 > message.length) return undefined;
  const type = message.readUInt16BE(at);
  return { id: message.readUInt16BE(0), flags, name: labels.join('.'), type, questionBytes: message.subarray(12, at + 4) };
}

/** A responder on a free UDP port of 127.0.0.1, closed in `t`'s teardown. */
export async function startDnsResponder(t: Teardown): Promise<DnsResponder> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const responder = new DnsResponder(socket, socket.address().port);
  t.teardown(() => responder.close());
  return responder;
}
