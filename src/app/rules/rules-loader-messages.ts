import type { XdsResource } from '../../config/index.js';
import type { ErrorCode } from '../../errors/index.js';

/** What the main thread asks of the rules loader thread: the rules files, or these xDS resources. */
export interface LoadRequest {
  id: number;
  resources?: XdsResource[];
}

/** A load that put new rules into the mailbox. */
export interface LoadedRules {
  generation: number;
  domains: number;
  /** The debug server's `/rlconfig` text of these rules. */
  rlconfig: string;
}

export type LoadReply = { id: number; ok: true; rules: LoadedRules } | { id: number; ok: false; error: { code: ErrorCode; message: string } };
