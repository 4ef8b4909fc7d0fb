import type { DescriptorRule, RateLimitConfig } from '../engine/index.js';

/**
 * The configuration as threads receive it: one JSON line per segment of at most
 * RULES_PER_SEGMENT top-level rules of one domain (a domain's segments in order; a domain without
 * rules is one empty segment). A thread parses and compiles it a segment at a time, between
 * requests, so no single step of a reload is longer than one segment's work.
 */
export const RULES_PER_SEGMENT = 500;

export interface ConfigSegment {
  domain: string;
  rules: DescriptorRule[];
}

export function encodeConfigSegments(config: RateLimitConfig): string {
  const lines: string[] = [];
  for (const { domain, descriptors } of config.domains) {
    if (descriptors.length === 0) lines.push(JSON.stringify({ domain, rules: [] }));
    for (let at = 0; at < descriptors.length; at += RULES_PER_SEGMENT) {
      lines.push(JSON.stringify({ domain, rules: descriptors.slice(at, at + RULES_PER_SEGMENT) } satisfies ConfigSegment));
    }
  }
  return lines.join('\n');
}

/** Reads the segments of an encoded configuration one at a time. */
export class SegmentReader {
  private at = 0;

  constructor(private readonly text: string) {}

  /** The next segment, or undefined when all have been read. */
  next(): ConfigSegment | undefined {
    if (this.at >= this.text.length) return undefined;
    let end = this.text.indexOf('\n', this.at);
    if (end === -1) end = this.text.length;
    const line = this.text.slice(this.at, end);
    this.at = end + 1;
    return JSON.parse(line) as ConfigSegment;
  }
}
