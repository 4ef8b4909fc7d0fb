/**
 * Entry point of the score render processes (started by the API thread's PooledNotationRenderer):
 * engraving with verovio and resvg, and the JSON export, both CPU-bound, one task at a time,
 * within the memory the process was given (its heap by --max-old-space-size, verovio's
 * WebAssembly memory here).
 */
import type { RenderProcessData, RenderProcessMessage, RenderRequest } from '../../scores/exports/index.js';
import { limitWebAssemblyMemory, prepareNotation, runRenderTask } from '../../scores/exports/render-process.js';

const MIB = 1024 * 1024;
const { limits } = JSON.parse(process.argv[2] ?? '{}') as RenderProcessData;
const memory = limitWebAssemblyMemory(limits.maxMemoryMb * MIB);
const send = (message: RenderProcessMessage) => process.send?.(message);

process.on('message', ({ id, task }: RenderRequest) => {
  void runRenderTask(task, limits, memory).then((outcome) => send({ kind: 'reply', id, outcome }));
});
// The service went away (or ended this process's work): nothing is left to do.
process.on('disconnect', () => process.exit(0));
// Tasks are timed from when the process can work on them, so it loads verovio first and says so.
await prepareNotation();
send({ kind: 'ready' });
