#!/usr/bin/env node
/** `ratelimit-config-check` (package.json `bin`): see config-check-command.ts. */
import { runConfigCheck } from './config-check-command.js';
import { processIo } from './io.js';

process.exitCode = await runConfigCheck(process.argv.slice(2), processIo);
