/**
 * Why an export could not be produced, as the producing steps report it; the exporter turns
 * each into the API's error at its boundary.
 */

/** Engraving or synthesis failed on this revision: the message says why. */
export class ExportFailed extends Error {}

/** Producing the export would pass one of the service's bounds: the message names its setting. */
export class ExportOverLimit extends Error {}

/** Too many exports already wait for the same kind of worker: the message names the setting. */
export class ExportBusy extends Error {}

/** A page asked for past the score's last: the caller's mistake, naming `page`. */
export class PageOutOfRange extends Error {}
