/** The lines printed after native-bench's table: rows set against another row than their ceiling. */
import { median, type Row } from './report.js';
import { COMPARED_WITH, PEER_COMPARISON, type Protocol } from './targets.js';

/** One protocol's `row` set against `base`: both measured, with their median CPU per request when known. */
function pairOf(rows: readonly Row[], id: string, base: string, protocol: Protocol) {
  const row = rows.find((r) => r.id === `${id}-${protocol}`);
  const baseRow = rows.find((r) => r.id === `${base}-${protocol}`);
  if (row?.max === undefined || baseRow?.max === undefined) return undefined;
  return { row, baseRow, rate: row.max.reqPerSec / baseRow.max.reqPerSec, cpu: median(row.roundsCpuUsPerRequest ?? []), baseCpu: median(baseRow.roundsCpuUsPerRequest ?? []) };
}

/**
 * The two rows' ratios to their own paired ceiling runs, divided: when the host's speed moves
 * between rounds the medians of two rows can come from rounds of different speed, while each
 * row's ratio to a ceiling run seconds after it does not.
 */
function againstCeilings(row: Row, baseRow: Row): string {
  if (row.ratio === undefined || baseRow.ratio === undefined || baseRow.ratio <= 0) return '';
  const cpu = row.cpuRatio !== undefined && baseRow.cpuRatio !== undefined && baseRow.cpuRatio > 0 ? `, ${(row.cpuRatio / baseRow.cpuRatio).toFixed(2)} of its cpu ratio` : '';
  return `; against their paired ceilings ${(row.ratio / baseRow.ratio).toFixed(2)} of its ratio${cpu}`;
}

/**
 * Rows measured against another service row (the algorithms against the fixed window, same
 * store and layout): max req/s and CPU per request as ratios, per protocol.
 */
export function comparedRows(rows: readonly Row[]): string[] {
  const lines: string[] = [];
  for (const [id, base] of Object.entries(COMPARED_WITH)) {
    for (const protocol of ['http', 'grpc'] as const) {
      const pair = pairOf(rows, id, base, protocol);
      if (pair === undefined) continue;
      const { row, baseRow, rate, cpu, baseCpu } = pair;
      const cpuRatio = baseCpu === undefined || cpu === undefined ? '-' : (baseCpu / cpu).toFixed(2);
      lines.push(`${row.id} (${row.target}) / ${baseRow.id}: ${rate.toFixed(2)} of its max req/s, ${cpuRatio} of its CPU per request${againstCeilings(row, baseRow)} (goal at least 0.9)`);
    }
  }
  return lines;
}

/** The service's `/json` against the Node peer: how many times the peer's rate, and the CPU each spends per request. */
export function peerComparison(rows: readonly Row[]): string | undefined {
  const pair = pairOf(rows, PEER_COMPARISON.service, PEER_COMPARISON.peer, 'http');
  if (pair === undefined) return undefined;
  const { row, baseRow, rate, cpu, baseCpu } = pair;
  const cpuText =
    cpu === undefined || baseCpu === undefined
      ? 'CPU per request not measured'
      : `CPU per request ${cpu.toFixed(1)} us against the peer's ${baseCpu.toFixed(1)} us (cpu ratio ${(baseCpu / cpu).toFixed(2)}, the peer's / the service's)`;
  return `${row.id} (${row.target}) / ${baseRow.id} (${baseRow.target}): ${rate.toFixed(2)} times the peer's max req/s; ${cpuText}`;
}
