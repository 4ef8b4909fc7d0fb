#!/usr/bin/env node
/** `npm run scores:token` (see scores-token-command.ts). */
import { processIo } from './io.js';
import { runScoresToken } from './scores-token-command.js';

process.exitCode = await runScoresToken(process.argv.slice(2), process.env, processIo);
