import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Produced files, one folder per revision under the data directory. Revisions never change, so
 * a file once written is valid until its score is deleted. Writes go to a temporary name and
 * are renamed into place: a reader never sees half a file, even from another instance sharing
 * the folder.
 */
export class ExportCache {
  constructor(private readonly dir: string) {}

  private path(revisionId: string, name: string): string {
    return join(this.dir, revisionId, name);
  }

  async read(revisionId: string, name: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.path(revisionId, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async write(revisionId: string, name: string, bytes: Uint8Array | string): Promise<void> {
    await mkdir(join(this.dir, revisionId), { recursive: true });
    const final = this.path(revisionId, name);
    const temporary = `${final}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, final);
  }

  async remove(revisionIds: readonly string[]): Promise<void> {
    await Promise.all(revisionIds.map((id) => rm(join(this.dir, id), { recursive: true, force: true })));
  }
}
