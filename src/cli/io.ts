/** Where a command writes: the process streams in the bins, string buffers in tests. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The process streams (pipes are written synchronously on Linux, so nothing is lost on exit). */
export const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** Collects output; for tests. */
export function bufferIo(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}

/** Go's text for a failed file operation: `open /x: no such file or directory`. */
export function goFileError(op: string, path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'ENOTDIR'
        ? 'not a directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'is a directory'
            : (error as Error).message;
  return `${op} ${path}: ${reason}`;
}
