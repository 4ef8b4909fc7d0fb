/**
 * The load generators: wrk (Debian `wrk`) and h2load (Debian `nghttp2-client`), installed with
 * apt-get when missing (as root, `apt-get update` first); taskset comes with util-linux.
 */
import { availableParallelism } from 'node:os';
import { runCommand } from './run-command.js';

const PACKAGES: Readonly<Record<string, string>> = { wrk: 'wrk', h2load: 'nghttp2-client' };

async function has(command: string): Promise<boolean> {
  return (await runCommand('sh', ['-c', `command -v ${command}`])).code === 0;
}

async function apt(args: string[]): Promise<void> {
  const out = await runCommand('apt-get', args);
  if (out.code !== 0) throw new Error(`apt-get ${args.join(' ')} failed:\n${out.stdout}\n${out.stderr}`);
}

export interface ToolVersions {
  wrk: string;
  h2load: string;
}

/** Installs the Debian package of every command that is missing (command -> package). */
export async function ensureCommands(packages: Readonly<Record<string, string>>): Promise<void> {
  const missing: string[] = [];
  for (const [command, pkg] of Object.entries(packages)) if (!(await has(command)) && !missing.includes(pkg)) missing.push(pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`native-bench needs: ${missing.join(' ')} (run: sudo apt-get install -y ${missing.join(' ')})`);
  console.log(`installing ${missing.join(' ')} with apt-get`);
  process.env['DEBIAN_FRONTEND'] = 'noninteractive';
  await apt(['update', '-qq']);
  await apt(['install', '-y', '-qq', ...missing]);
}

export async function ensureLoadTools(): Promise<ToolVersions> {
  if (availableParallelism() < 2) throw new Error('native-bench needs 2 CPUs: servers on CPU 0, load generator on CPU 1');
  if (!(await has('taskset'))) throw new Error('taskset is missing (Debian package util-linux)');
  await ensureCommands(PACKAGES);
  const wrk = (await runCommand('wrk', ['-v'])).stdout.split('\n')[0]?.trim() ?? '';
  const h2load = (await runCommand('h2load', ['--version'])).stdout.trim();
  return { wrk: wrk.replace(/ Copyright.*/, ''), h2load };
}
