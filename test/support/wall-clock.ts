/**
 * For tests of a real service process, whose fixed windows follow the wall clock (no clock can
 * be injected into another process): resolves at once while at least `needMs` of the current
 * window of `windowMs` remain, otherwise once the next window has begun, so that a run of
 * requests expected to share one window does not straddle two.
 *
 *   await oneWindowAhead(60_000, 10_000);
 *   for (let i = 0; i < 30; i++) expect(i === 0 ? 200 : 429);
 */
export async function oneWindowAhead(windowMs: number, needMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 5));
}
