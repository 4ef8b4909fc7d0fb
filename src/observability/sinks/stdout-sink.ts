import { timerSamples, type StatsBatch, type StatsSink } from './stats-sink.js';

type Write = (text: string) => void;

/**
 * The sink when no daemon is selected (USE_METRICSD=false): one JSON line per statistic per flush
 * on standard output, in the format of upstream's gostats logging sink, so existing log pipelines
 * parse it: `{"level":"debug","ts":1700000000.123456,"logger":"gostats.loggingsink",
 * "msg":"flushing counter","json":{"name":"…","type":"counter","value":"5.000000"}}`.
 */
export class StdoutSink implements StatsSink {
  constructor(
    private readonly write: Write = (text) => process.stdout.write(text),
    private readonly now: () => number = Date.now,
  ) {}

  send(batch: StatsBatch): void {
    const ts = (this.now() / 1000).toFixed(6);
    let out = '';
    const line = (name: string, type: string, value: number, count = 1) => {
      const json = count === 1 ? { name, type, value: value.toFixed(6) } : { name, type, value: value.toFixed(6), count: String(count) };
      out += `{"level":"debug","ts":${ts},"logger":"gostats.loggingsink","msg":"flushing ${type}","json":${JSON.stringify(json)}}\n`;
    };
    for (const [name, delta] of batch.counters) line(name, 'counter', delta);
    for (const [name, value] of batch.gauges) line(name, 'gauge', value);
    // A line per sample would be a line per request: a line per bucket instead, its mean and count.
    for (const timer of batch.timers) {
      for (const sample of timerSamples(timer)) line(timer.name, 'timer', sample.valueMs, sample.count);
    }
    if (out !== '') this.write(out);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

