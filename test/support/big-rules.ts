/**
 * A legitimate rules file of many descriptors (domain `big`, key `user`, values u0..u<count-1>,
 * value u<i> allowing (i % 100) + 1 per minute, the bare key 5): about 95 bytes per descriptor.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';

/** The same domain with one rule only, the bare key at 5 per minute: what is in service before. */
export const SMALL_BIG_RULES = 'domain: big\ndescriptors:\n  - key: user\n    rate_limit: {unit: minute, requests_per_unit: 5}\n';

/**
 * Streams the rules to `path` a thousand at a time: the process that writes them measures
 * latency, so it must not itself hold (and later collect) a 19 MB string while it does.
 */
export async function writeBigRules(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('domain: big\ndescriptors:\n');
  for (let start = 0; start < count; start += 1000) {
    let chunk = '';
    for (let i = start; i < Math.min(count, start + 1000); i++) chunk += `  - key: user\n    value: u${i}\n    rate_limit:\n      unit: minute\n      requests_per_unit: ${(i % 100) + 1}\n`;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
}
