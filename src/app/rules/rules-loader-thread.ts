/**
 * Entry point of the rules loader thread: reads the rules files, parses and validates them, and
 * publishes them to the configuration mailbox, off every thread that answers decisions. It runs
 * with a bounded heap (CONFIG_LOADER_MAX_HEAP_MB), so a file that would take gigabytes to parse
 * ends this thread, not the process; the main thread counts that as a failed load.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { dumpConfig, loadConfig, readConfigSources, type FileSourceSettings, type LoadConfigResult, type XdsResource } from '../../config/index.js';
import { ServiceError, type Result } from '../../errors/index.js';
import { ConfigMailbox, encodeConfigSegments, niceThisThread } from '../../threads/index.js';
import type { LoadReply, LoadRequest } from './rules-loader-messages.js';

export interface RulesLoaderData {
  files: FileSourceSettings;
  mergeDomainConfigs: boolean;
  mailboxBuffer: SharedArrayBuffer;
  /** CONFIG_LOADER_NICE: parsing a large file takes seconds of CPU that decisions should get first. */
  nice: number;
}

const data = workerData as RulesLoaderData;
const mailbox = ConfigMailbox.attach(data.mailboxBuffer);
// If the thread cannot be niced it still loads, at normal priority; nothing to report from here.
niceThisThread(data.nice);

/** The rules files, or the resources an xDS server sent, validated the same way. */
async function readRules(resources: XdsResource[] | undefined): Promise<LoadConfigResult | Result<never, 'CFG_UNREADABLE' | 'CFG_TOO_LARGE'>> {
  const options = { mergeDomainConfigs: data.mergeDomainConfigs };
  if (resources !== undefined) {
    // Loaded on the first resources: a thread that reads files never pays for protobufjs and grpc-js.
    const { loadXdsConfig } = await import('../../config/xds/index.js');
    return loadXdsConfig(resources, options);
  }
  const sources = await readConfigSources(data.files);
  if (!sources.ok) return sources;
  return loadConfig(sources.value, options);
}

async function load(id: number, resources: XdsResource[] | undefined): Promise<LoadReply> {
  const loaded = await readRules(resources);
  if (!loaded.ok) return { id, ok: false, error: loaded.error };
  const published = mailbox.publish(new TextEncoder().encode(encodeConfigSegments(loaded.value)));
  if (published instanceof ServiceError) return { id, ok: false, error: published };
  return { id, ok: true, rules: { generation: published, domains: loaded.value.domains.length, rlconfig: dumpConfig(loaded.value) } };
}

parentPort?.on('message', (request: LoadRequest) => {
  load(request.id, request.resources).then(
    (reply) => parentPort?.postMessage(reply),
    // Whatever else a file can provoke (a stack overflow in some library, say) is a failed load too.
    (error: unknown) => {
      const reply: LoadReply = { id: request.id, ok: false, error: { code: 'CFG_INVALID', message: `the rules could not be loaded: ${String(error)}` } };
      parentPort?.postMessage(reply);
    },
  );
});
