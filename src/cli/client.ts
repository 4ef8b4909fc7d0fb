#!/usr/bin/env node
/** `ratelimit-client` (package.json `bin`): see client-command.ts. */
import { runClient } from './client-command.js';
import { processIo } from './io.js';

// grpc-js sets the TLS server name to the host even when it is an IP address, which makes
// Node print DEP0123 on every TLS call to an IP; deprecations of our dependencies are noise here.
process.noDeprecation = true;
process.exitCode = await runClient(process.argv.slice(2), processIo);
// The channel is closed after the call; should anything still hold the event loop, do not hang.
setTimeout(() => process.exit(), 1000).unref();
