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
  /** The ceiling's maximum rate, measured right after `max` (service rows). */
  pairedCeiling?: Measurement;
  /** Row whose max req/s is the ceiling for this one. */
  ceilingId: string;
  /** max req/s of this row / max req/s of the ceiling row. */
  ratio?: number;
  /** max req/s of every round (in round order); the row shows the round with the median. */
  roundsReqPerSec?: number[];
  /** Per round: this row's max req/s / the ceiling's (its paired run when there is one). */
  roundRatios?: number[];
  /** Per round: the paired ceiling run's max req/s and CPU us per request (same order as roundsReqPerSec). */
  roundsCeilingReqPerSec?: number[];
  roundsCeilingCpuUsPerRequest?: number[];
  /** Median max req/s of this row / median max req/s of the ceiling. */
  ratioOfMedians?: number;
  /**
   * The same ratio in CPU time: the ceiling's server CPU per request / this row's. Median over
   * rounds of the paired runs when there are any, else the ratio of the two medians.
   */
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

export const median = (values: readonly number[]): number | undefined =>
  values.length === 0 ? undefined : ([...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number);

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Rounds -> one row per target: each row is its round with the median maximum rate, and carries
 * every round's rate and CPU time, and its paired ceiling runs, for the ratios.
 */
export function medianRows(rounds: readonly Row[][]): Row[] {
  const first = rounds[0] ?? [];
  return first.map((row) => {
    const samples = rounds.map((round) => round.find((r) => r.id === row.id)).filter((r): r is Row => r !== undefined);
    const measured = samples.filter((r): r is Row & { max: Measurement } => r.status === 'measured' && r.max !== undefined);
    if (measured.length === 0) return samples.find((r) => r.status === 'failed') ?? row;
    const sorted = [...measured].sort((a, b) => a.max.reqPerSec - b.max.reqPerSec);
    const middle = sorted[Math.floor((sorted.length - 1) / 2)] as Row;
    const failed = samples.find((r) => r.status === 'failed');
    const paired = measured.every((r) => r.pairedCeiling !== undefined);
    return {
      ...middle,
      roundsReqPerSec: measured.map((r) => Math.round(r.max.reqPerSec)),
      roundsCpuUsPerRequest: measured.flatMap((r) => (r.max.cpuUsPerRequest === undefined ? [] : [round2(r.max.cpuUsPerRequest)])),
      ...(paired
        ? {
            roundsCeilingReqPerSec: measured.map((r) => Math.round(r.pairedCeiling?.reqPerSec ?? 0)),
            roundsCeilingCpuUsPerRequest: measured.flatMap((r) => (r.pairedCeiling?.cpuUsPerRequest === undefined ? [] : [round2(r.pairedCeiling.cpuUsPerRequest)])),
          }
        : {}),
      ...(failed === undefined ? {} : { status: 'failed' as const, note: failed.note }),
    };
  });
}

/** Per round, mine[i] / theirs[i], or undefined when the rounds do not line up. */
function perRound(mine: readonly number[] | undefined, theirs: readonly number[] | undefined): number[] | undefined {
  if (mine === undefined || theirs === undefined || mine.length === 0 || mine.length !== theirs.length) return undefined;
  return mine.map((value, i) => value / (theirs[i] as number));
}

/**
 * ratio: the median over rounds of (this row's max req/s / its ceiling's). A service row's
 * ceiling is its paired run, measured seconds after it; without one (older layouts), the
 * ceiling's own row in the same round, a minute or more apart. The host's speed drifts by a
 * third within minutes, so the paired runs are the fairer comparison. cpuRatio likewise, in
 * CPU time per request. The plain ratio of the two medians is kept as `ratioOfMedians`.
 */
export function fillRatios(rows: Row[]): void {
  for (const row of rows) {
    const ceiling = rows.find((r) => r.id === row.ceilingId);
    const ceilingRate = ceiling?.max?.reqPerSec;
    if (row.max === undefined || ceilingRate === undefined || ceilingRate <= 0) continue;
    row.ratioOfMedians = row.max.reqPerSec / ceilingRate;
    const pairedRates = row.roundsCeilingReqPerSec;
    const rates = perRound(row.roundsReqPerSec, pairedRates ?? ceiling?.roundsReqPerSec);
    row.ratio = rates === undefined ? row.ratioOfMedians : median(rates);
    if (rates !== undefined) row.roundRatios = rates.map(round2);
    const cpus = pairedRates === undefined ? undefined : perRound(row.roundsCeilingCpuUsPerRequest, row.roundsCpuUsPerRequest);
    if (cpus !== undefined) {
      row.cpuRatio = median(cpus);
      continue;
    }
    const myCpu = median(row.roundsCpuUsPerRequest ?? []);
    const ceilingCpu = median(ceiling?.roundsCpuUsPerRequest ?? []);
    if (myCpu !== undefined && ceilingCpu !== undefined && myCpu > 0) row.cpuRatio = ceilingCpu / myCpu;
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
        r.roundsCeilingReqPerSec === undefined ? '' : `paired ceiling ${r.roundsCeilingReqPerSec.join('/')}`,
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
