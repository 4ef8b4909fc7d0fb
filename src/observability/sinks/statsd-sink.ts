import { StatsD, type ClientOptions } from 'hot-shots';
import { splitTags, type StatTag } from '../stat-tags.js';
import { compileMogrifier, mogrify, type Mogrifier, type MogrifierSpec } from './mogrifier.js';
import { timerLineSuffix, timerSamples, type StatsBatch, type StatsSink } from './stats-sink.js';

export interface StatsdSinkOptions {
  host: string;
  port: number;
  protocol: 'tcp' | 'udp';
  /**
   * `plain`: names as they are, tags in the name (`.__k=v`), as upstream's gostats TCP sink.
   * `tagged`: DogStatsD, tags split out of the name and mogrifiers applied, as upstream's
   * USE_DOG_STATSD sink.
   */
  format: { kind: 'plain' } | { kind: 'tagged'; mogrifiers: readonly MogrifierSpec[] };
  /** Every send failure (the caller counts them and decides what to log). */
  onError: (error: Error) => void;
  /** How long a stop waits for the last flush to reach a daemon that is connected; default 1 s. */
  closeWaitMs?: number;
}

/** Bytes per UDP datagram that pass any path MTU, as gostats' UDP buffer; TCP sends bigger writes. */
const UDP_BUFFER_BYTES = 1432;
const TCP_BUFFER_BYTES = 64 * 1024;
/**
 * Buffers handed to the socket and not yet written out. A daemon that accepts the connection but
 * stops reading would otherwise grow the process without bound; past this (about 4 MiB over TCP,
 * as gostats' queue) a flush is dropped and reported instead.
 */
const MAX_BUFFERS_IN_FLIGHT = 64;
/** A broken connection is replaced at a flush, at most this often. */
const RECONNECT_INTERVAL_MS = 1000;

/** The parts of hot-shots' client used here that its type declarations leave out. */
interface ClientInternals {
  /** `message` is a complete statsd line without tags; hot-shots appends the tags and buffers it. */
  send(message: string, tags?: string[]): void;
  messagesInFlight: number;
  /** The transport; its close() destroys the socket at once. */
  socket?: { close(): void };
}

/** How long a stop waits for the last flush to reach the daemon before dropping the connection. */
const DEFAULT_CLOSE_WAIT_MS = 1000;

/**
 * The metrics daemon sinks (statsd and DogStatsD) on hot-shots. Each flush is a few buffered
 * writes, never a packet per request: counters go as their change since the previous flush,
 * gauges as their value, timers as one line per bucket with a sample rate.
 */
export class StatsdSink implements StatsSink {
  private client: StatsD;
  private broken = false;
  private createdAt = 0;
  /** Set while a stop waits for the last flush: a connection that fails then ends the wait. */
  private onBrokenWhileClosing: (() => void) | undefined;
  private readonly naming: (stat: string) => { name: string; tags: string[] | undefined };

  constructor(private readonly options: StatsdSinkOptions) {
    const format = options.format;
    if (format.kind === 'plain') {
      this.naming = plainName;
    } else {
      const mogrifiers = format.mogrifiers.map(compileMogrifier);
      // Names repeat every flush and are bounded by STATS_MAX_NAMES: match each one once.
      const named = new Map<string, { name: string; tags: string[] }>();
      this.naming = (stat) => {
        let result = named.get(stat);
        if (result === undefined) named.set(stat, (result = taggedName(stat, mogrifiers)));
        return result;
      };
    }
    this.client = this.connect();
  }

  /**
   * A connection that failed is replaced at most every RECONNECT_INTERVAL_MS; until then the
   * flusher keeps the statistics for a later flush rather than write them into a dead socket.
   */
  ready(): boolean {
    return !this.broken || Date.now() - this.createdAt >= RECONNECT_INTERVAL_MS;
  }

  private connect(): StatsD {
    this.broken = false;
    this.createdAt = Date.now();
    const tcp = this.options.protocol === 'tcp';
    const clientOptions: ClientOptions = {
      host: this.options.host,
      port: this.options.port,
      protocol: this.options.protocol,
      maxBufferSize: tcp ? TCP_BUFFER_BYTES : UDP_BUFFER_BYTES,
      // The flush writes everything at once and then calls flush(); no timer is needed.
      bufferFlushInterval: 60_000,
      // hot-shots reconnects TCP only on some errors; this sink replaces a broken client itself.
      tcpGracefulErrorHandling: false,
      includeDataDogTags: false,
      errorHandler: (error) => {
        this.broken = tcp;
        this.options.onError(error);
        if (tcp) this.onBrokenWhileClosing?.();
      },
    };
    return new StatsD(clientOptions);
  }

  send(batch: StatsBatch): void {
    if (this.broken && Date.now() - this.createdAt >= RECONNECT_INTERVAL_MS) {
      this.client.close(() => {});
      this.client = this.connect();
    }
    const internals = this.client as unknown as ClientInternals;
    if (internals.messagesInFlight > MAX_BUFFERS_IN_FLIGHT) {
      const dropped = batch.counters.length + batch.gauges.length + batch.timers.length;
      this.options.onError(new Error(`metrics daemon is not reading: dropped a flush of ${dropped} statistics`));
      return;
    }
    const naming = this.naming;
    for (const [stat, delta] of batch.counters) {
      const { name, tags } = naming(stat);
      this.client.increment(name, delta, tags);
    }
    for (const [stat, value] of batch.gauges) {
      const { name, tags } = naming(stat);
      this.client.gauge(name, value, tags);
    }
    for (const timer of batch.timers) {
      const { name, tags } = naming(timer.name);
      for (const sample of timerSamples(timer)) internals.send(`${name}:${timerLineSuffix(sample.valueMs, sample.count)}`, tags);
    }
    this.client.flush();
  }

  /**
   * Sends what is buffered and closes. hot-shots calls back only once its last write went out,
   * which never happens while no daemon listens. So a connection already broken, or refused
   * during the wait, is dropped at once; any other (a daemon that accepts and does not read) is
   * dropped after `closeWaitMs`. A stop never waits on a daemon that is not there.
   */
  close(): Promise<void> {
    const client = this.client;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onBrokenWhileClosing = undefined;
        resolve();
      };
      const drop = () => {
        (client as unknown as ClientInternals).socket?.close();
        done();
      };
      const timer = setTimeout(drop, this.options.closeWaitMs ?? DEFAULT_CLOSE_WAIT_MS);
      if (this.broken) {
        drop();
        return;
      }
      this.onBrokenWhileClosing = drop;
      client.close(done);
    });
  }
}

function plainName(stat: string): { name: string; tags: string[] | undefined } {
  return { name: stat, tags: undefined };
}

/** Upstream's DogStatsD naming: tags out of the name first, then the first matching mogrifier. */
function taggedName(stat: string, mogrifiers: readonly Mogrifier[]): { name: string; tags: string[] } {
  const { base, tags } = splitTags(stat);
  const mogrified = mogrify(mogrifiers, base);
  return { name: mogrified.name, tags: [...tags, ...mogrified.tags].map(tagText) };
}

function tagText([key, value]: StatTag): string {
  return `${key}:${value}`;
}
