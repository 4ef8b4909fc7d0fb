/**
 * Profiling captures for the debug server, built on node:inspector (the Node equivalent of
 * Go's runtime/pprof and runtime/trace). An in-process inspector Session profiles the thread
 * it was created on, i.e. the main thread; worker threads are not included.
 *
 * Each kind of capture is process-wide (one V8 isolate, one tracing agent), so at most one
 * of each runs at a time across every debug server in the process.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import type { Profiler } from 'node:inspector';
import type * as InspectorPromises from 'node:inspector/promises';

export type CaptureKind = 'cpu' | 'heap' | 'trace';

const busy = new Set<CaptureKind>();

/** Takes the process-wide slot for `kind`; false if a capture of that kind is running. */
export function tryAcquire(kind: CaptureKind): boolean {
  if (busy.has(kind)) return false;
  busy.add(kind);
  return true;
}

export function release(kind: CaptureKind): void {
  busy.delete(kind);
}

/** Thrown when a capture stops early because its signal was aborted. */
export class CaptureAborted extends Error {
  constructor() {
    super('capture aborted');
    this.name = 'CaptureAborted';
  }
}

type InspectorModule = typeof InspectorPromises;

let inspectorModule: Promise<InspectorModule> | undefined;

/**
 * node:inspector is loaded on first use: it is not needed on the hot path, and a Node built
 * without the inspector throws on import, which must not stop the service from starting.
 */
function loadInspector(): Promise<InspectorModule> {
  inspectorModule ??= import('node:inspector/promises');
  return inspectorModule;
}

/** Waits `ms`; resolves false (instead of throwing) if `signal` aborts first. */
async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch (err) {
    if (signal.aborted) return false;
    throw err;
  }
}

/**
 * Samples the main thread's CPU for `seconds` and returns the V8 profile, which is the
 * `.cpuprofile` format Chrome DevTools (Performance / JavaScript Profiler) loads.
 * Throws CaptureAborted if `signal` aborts before the time is up; the profiler is stopped
 * and the session closed in every case.
 */
export async function captureCpuProfile(
  seconds: number,
  signal: AbortSignal,
): Promise<Profiler.Profile> {
  const { Session } = await loadInspector();
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const completed = await wait(seconds * 1000, signal);
    const { profile } = await session.post('Profiler.stop');
    if (!completed) throw new CaptureAborted();
    return profile;
  } finally {
    session.disconnect();
  }
}

/**
 * Records Node trace events (the tracing agent behind --trace-events-enabled) for `seconds`
 * and returns them as a Chrome trace-event JSON object `{"traceEvents": [...]}`, loadable in
 * Perfetto (ui.perfetto.dev) or chrome://tracing. This is the nearest Node equivalent of
 * Go's execution tracer. Throws CaptureAborted if `signal` aborts first.
 */
export async function captureTrace(
  seconds: number,
  categories: readonly string[],
  signal: AbortSignal,
): Promise<{ traceEvents: unknown[] }> {
  const { Session } = await loadInspector();
  const session = new Session();
  session.connect();
  const traceEvents: unknown[] = [];
  session.on('NodeTracing.dataCollected', (message) => {
    for (const event of message.params.value) traceEvents.push(event);
  });
  let started = false;
  try {
    await session.post('NodeTracing.start', {
      traceConfig: { includedCategories: [...categories] },
    });
    started = true;
    const completed = await wait(seconds * 1000, signal);
    // The agent flushes its buffers through dataCollected events before stop resolves.
    await session.post('NodeTracing.stop');
    started = false;
    if (!completed) throw new CaptureAborted();
    return { traceEvents };
  } finally {
    if (started) {
      // Stop failed part-way: make sure the agent is not left recording.
      await session.post('NodeTracing.stop').catch(() => undefined);
    }
    session.disconnect();
  }
}
