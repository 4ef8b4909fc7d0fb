/** The printed table and `results/latest.json`. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Measurement } from './measurement.js';
import type { StoreMemory } from './store-memory.js';
import type { Protocol } from './targets.js';

export interface Row {
  /** `<target id>-<protocol>`, e.g. `c-grpc`. */
  id: string;
  targetId: string;
  target: string;
  protocol: Protocol;
  status: 'measured' | 'skipped' | 'failed';
  note?: string;
  /** Maximum rate (wrk for HTTP, h2load for gRPC). */
  max?: Measurement;
  /** Fixed rate at half of `max.reqPerSec` (h2load --rps). */
  half?: Measurement;
  /** Row whose max req/s is the ceiling for this one. */
  ceilingId: string;
  /** max req/s of this row / max req/s of the ceiling row. */
  ratio?: number;
  /** max req/s of every round (in round order); the row shows the round with the median. */
  roundsReqPerSec?: number[];
  /** Per round: this row's max req/s / the ceiling's in the same round. */
  roundRatios?: number[];
  /** Median max req/s of this row / median max req/s of the ceiling. */
  ratioOfMedians?: number;
  /** Server CPU per request of the ceiling / of this row, medians over rounds: the same ratio, measured in CPU time. */
  cpuRatio?: number;
  /** Server CPU microseconds per request of every round. */
  roundsCpuUsPerRequest?: number[];
}

export interface Report {
  generatedAt: string;
  machine: Record<string, unknown>;
  settings: Record<string, unknown>;
  rows: Row[];
  memory: StoreMemory | { error: string };
  notes: string[];
}

/**
 * ratio: the median over rounds of (this row's max req/s / its ceiling's max req/s in the same
 * round). Pairing within a round compares measurements taken a minute apart, which matters on a
 * machine whose speed drifts between rounds; the plain ratio of the two medians is kept as
 * `ratioOfMedians`.
 */
export function fillRatios(rows: Row[]): void {
  for (const row of rows) {
    const ceiling = rows.find((r) => r.id === row.ceilingId);
    const ceilingRate = ceiling?.max?.reqPerSec;
    if (row.max === undefined || ceilingRate === undefined || ceilingRate <= 0) continue;
    row.ratioOfMedians = row.max.reqPerSec / ceilingRate;
    const median = (values: number[] | undefined) =>
      values === undefined || values.length === 0 ? undefined : ([...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number);
    const myCpu = median(row.roundsCpuUsPerRequest);
    const ceilingCpu = median(ceiling?.roundsCpuUsPerRequest);
    if (myCpu !== undefined && ceilingCpu !== undefined && myCpu > 0) row.cpuRatio = ceilingCpu / myCpu;
    const mine = row.roundsReqPerSec;
    const theirs = ceiling?.roundsReqPerSec;
    if (mine === undefined || theirs === undefined || mine.length !== theirs.length) {
      row.ratio = row.ratioOfMedians;
      continue;
    }
    const paired = mine.map((rate, i) => rate / (theirs[i] as number)).sort((a, b) => a - b);
    row.ratio = paired[Math.floor((paired.length - 1) / 2)] as number;
    row.roundRatios = mine.map((rate, i) => Math.round((rate / (theirs[i] as number)) * 100) / 100);
  }
}

const int = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : Math.round(n).toString());
const count = (n: number | null | undefined) => (n === null || n === undefined ? 'n/a' : String(n));
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

function memoryNote(memory: Report['memory']): string {
  if ('error' in memory) return `failed: ${memory.error}`;
  return (
    `RSS ${mib(memory.rssBeforeBytes)} before, ${mib(memory.rssAfterCreateBytes)} after create, ${mib(memory.rssAfterBytes)} after ` +
    `${memory.keys.toLocaleString('en-US')} keys: ${memory.bytesPerKey.toFixed(1)} bytes/key ` +
    `(keysInUse ${memory.keysInUse}, full ${memory.fullCount}, wrong counts ${memory.wrongCounts}, load ${Math.round(memory.loadMs)} ms)`
  );
}

export function renderTable(report: Report): string {
  const header = [
    'row', 'target', 'max req/s', 'p50 us', 'p99 us', 'errors', 'ratio', 'cpu us/req', 'cpu ratio',
    '|', 'half req/s', 'p50 us', 'p99 us', '200', '429', 'errors', 'note',
  ];
  const lines: string[][] = [];
  for (const r of report.rows) {
    const m = r.max;
    const h = r.half;
    lines.push([
      r.id, r.target,
      int(m?.reqPerSec), int(m?.p50Us), int(m?.p99Us), m === undefined ? '-' : String(m.errors), r.ratio === undefined ? '-' : r.ratio.toFixed(2),
      m?.cpuUsPerRequest === undefined ? '-' : m.cpuUsPerRequest.toFixed(1), r.cpuRatio === undefined ? '-' : r.cpuRatio.toFixed(2),
      '|', int(h?.reqPerSec), int(h?.p50Us), int(h?.p99Us), count(h?.status200), count(h?.status429), h === undefined ? '-' : String(h.errors),
      [
        r.roundsReqPerSec === undefined ? '' : `rounds ${r.roundsReqPerSec.join('/')}`,
        r.roundRatios === undefined ? '' : `ratios ${r.roundRatios.join('/')}`,
        r.note ?? '',
      ]
        .filter((n) => n !== '')
        .join('; '),
    ]);
  }
  lines.push(['m-mem', 'embedded store, 1M distinct keys, fresh process', '-', '-', '-', '-', '-', '-', '-', '|', '-', '-', '-', '-', '-', '-', memoryNote(report.memory)]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : i >= 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [fmt(header), ...lines.map(fmt)].join('\n');
}

export async function writeReport(path: string, report: Report): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(report, null, 2) + '\n');
}
