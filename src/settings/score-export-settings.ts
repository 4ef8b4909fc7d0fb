import { SettingsError, type EnvReader } from './env-reader.js';

const MIB = 1024 * 1024;

/** Bounds on what a score upload or export may make the service hold or do. Names: see README "Settings" and "Limits". */
export interface ScoreExportSettings {
  /** Largest MusicXML document in bytes, as uploaded or once an .mxl entry is inflated. */
  scoresMaxMusicXmlBytes: number;
  /** An .mxl entry may inflate to at most this many times its compressed size (past 1 MiB). */
  scoresMxlMaxRatio: number;
  /** Most measures a score may play once its repeats are expanded; more is not engraved. */
  scoresMaxExpandedMeasures: number;
  /** Longest audio export; a score whose music lasts longer is refused before synthesis. */
  scoresMaxAudioMs: number;
  /** Memory of a render process: its JavaScript heap and, separately, verovio's WebAssembly memory. */
  scoresRenderMaxMemoryMb: number;
  /** Longest one engraving, JSON export, synthesis or MP3 encoding may take. */
  scoresRenderTimeoutMs: number;
  /** FluidSynth and LAME processes running at once. */
  scoresSynthConcurrency: number;
  /** Exports waiting for a render process, or for a synthesiser, beyond which more are refused. */
  scoresExportMaxQueued: number;
  /** Bytes of produced export files kept under DATA_DIR; least recently used revisions go first. */
  scoresExportCacheBytes: number;
  /** Share of the export cache the revisions of one account may hold. */
  scoresExportCacheAccountShare: number;
}

export function readScoreExportSettings(env: EnvReader): ScoreExportSettings {
  const accountShare = env.ratio(['SCORES_EXPORT_CACHE_ACCOUNT_SHARE'], 0.25);
  // A share of nothing would evict every export as soon as it is made.
  if (accountShare === 0) {
    const raw = env.string(['SCORES_EXPORT_CACHE_ACCOUNT_SHARE'], '');
    throw new SettingsError(`invalid value for SCORES_EXPORT_CACHE_ACCOUNT_SHARE: ${JSON.stringify(raw)} (expected a number above 0, up to 1)`);
  }
  return {
    scoresMaxMusicXmlBytes: env.integer(['SCORES_MAX_MUSICXML_BYTES'], 16 * MIB, 1024, 1024 * MIB),
    scoresMxlMaxRatio: env.integer(['SCORES_MXL_MAX_RATIO'], 200, 2, 100_000),
    scoresMaxExpandedMeasures: env.integer(['SCORES_MAX_EXPANDED_MEASURES'], 2000, 1, 10_000_000),
    scoresMaxAudioMs: env.durationMs(['SCORES_MAX_AUDIO_DURATION'], 10 * 60_000),
    scoresRenderMaxMemoryMb: env.integer(['SCORES_RENDER_MAX_MEMORY_MB'], 1024, 64, 65536),
    scoresRenderTimeoutMs: env.durationMs(['SCORES_RENDER_TIMEOUT'], 60_000),
    scoresSynthConcurrency: env.integer(['SCORES_SYNTH_CONCURRENCY'], 1, 1, 64),
    scoresExportMaxQueued: env.integer(['SCORES_EXPORT_MAX_QUEUED'], 32, 0, 1_000_000),
    scoresExportCacheBytes: env.integer(['SCORES_EXPORT_CACHE_BYTES'], 1024 * MIB, MIB, Number.MAX_SAFE_INTEGER),
    scoresExportCacheAccountShare: accountShare,
  };
}
