/**
 * Loading ioredis slows every string method call in the thread that loads it, and this module
 * undoes that. ioredis 6 declares `class VerbatimString extends String` (its RESP3 verbatim
 * strings); V8 turns `String.prototype` into a dictionary-mode object when a class extends it,
 * and only makes it fast again once an instance of that class is created, which never happens
 * here (no RESP3). Until then no optimized code can inline a string method: `text.startsWith`,
 * `indexOf`, `slice` and the like each call V8's generic property load (callgrind on `/json`:
 * 3,500 instructions of `LoadIC` per request, in the request reader alone). Creating one
 * instance at load time restores the fast prototype; `test/unit/backends/fast-prototypes.test.ts`
 * checks it for every thread's modules.
 */
import { VerbatimString } from 'ioredis/built/resp/verbatim-string.js';

void new VerbatimString('txt', '');
