/**
 * The `/stats` body: one `name: value` line per statistic, sorted by name, as Go's expvar
 * handler in the upstream debug server prints them. Upstream only ever shows
 * Go's `cmdline` and `memstats` there; this clone shows the service's own statistics plus
 * Node process figures under `process.*`.
 */

/** Node process figures, the counterpart of expvar's `cmdline` and `memstats`. */
export function processFigures(): Array<[string, string]> {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return [
    ['process.cmdline', JSON.stringify(process.argv)],
    ['process.cpu.systemMicros', String(cpu.system)],
    ['process.cpu.userMicros', String(cpu.user)],
    ['process.memory.arrayBuffers', String(memory.arrayBuffers)],
    ['process.memory.external', String(memory.external)],
    ['process.memory.heapTotal', String(memory.heapTotal)],
    ['process.memory.heapUsed', String(memory.heapUsed)],
    ['process.memory.rss', String(memory.rss)],
    ['process.pid', String(process.pid)],
    ['process.uptimeSeconds', process.uptime().toFixed(3)],
    ['process.version', JSON.stringify(process.version)],
  ];
}

/** Byte-wise (UTF-16 code unit) order, like Go's sort.Strings on ASCII names. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function renderStats(stats: ReadonlyArray<readonly [string, number]>): string {
  const lines: Array<[string, string]> = stats.map(([name, value]) => [name, String(value)]);
  lines.push(...processFigures());
  lines.sort((a, b) => compareNames(a[0], b[0]));
  let out = '';
  for (const [name, value] of lines) out += `${name}: ${value}\n`;
  return out;
}
