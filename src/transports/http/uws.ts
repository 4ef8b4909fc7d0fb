import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Uws from '@trufflesuite/uws-js-unofficial';

export type UwsModule = typeof Uws;
export type { AppOptions, HttpRequest, HttpResponse, TemplatedApp, us_listen_socket as ListenSocket } from '@trufflesuite/uws-js-unofficial';

const require = createRequire(import.meta.url);
let loaded: UwsModule | undefined;

/**
 * The uWebSockets.js native binding. The package's own entry point falls back silently to a
 * JavaScript server several times slower when the binary does not load; a sidecar on the hot
 * path must not run that way unnoticed, so we load the binary directly and fail loudly.
 */
export function loadUws(): UwsModule {
  if (loaded !== undefined) return loaded;
  const packageDir = dirname(require.resolve('@trufflesuite/uws-js-unofficial/package.json'));
  const binary = join(
    packageDir,
    'binaries',
    `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`,
  );
  let module: UwsModule;
  try {
    module = require(binary) as UwsModule;
  } catch (error) {
    throw new Error(
      `the uWebSockets.js native binding did not load (${binary}): ${(error as Error).message}. ` +
        'It ships binaries for Node 16/18/20 on linux-x64 with glibc; the slow JavaScript fallback is refused.',
    );
  }
  if (!String(module.App).includes('[native code]')) {
    throw new Error('uWebSockets.js loaded without its native binding; refusing the slow JavaScript fallback');
  }
  loaded = module;
  return module;
}
