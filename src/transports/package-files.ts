import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files of this package the code opens at run time (thread entry files, .proto files), named from
 * the package's root (the folder of package.json) rather than from the module that opens them:
 * `npm run build` bundles each thread's entry file (bundle-threads.js), so a module's code runs
 * from its own file under dist/src/, from an entry file, or from a shared chunk in
 * dist/src/chunks/, each at another depth.
 */
const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json in ${from} or a folder above it`);
  }
}

/** A file of the package by its path from the root (`proto/`, `dist/src/main.js`). */
export function packageFile(path: string): string {
  return join(PACKAGE_ROOT, path);
}
