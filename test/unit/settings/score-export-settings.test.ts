/** The bounds on score uploads and exports: their defaults, and a clear refusal of a bad value. */
import t from 'tap';
import { loadSettings } from '../../../src/settings/index.js';

t.test('defaults', async (t) => {
  t.match(loadSettings({}), {
    scoresMaxMusicXmlBytes: 16 * 1024 * 1024,
    scoresMxlMaxRatio: 200,
    scoresMaxExpandedMeasures: 2000,
    scoresMaxAudioMs: 600_000,
    scoresRenderMaxMemoryMb: 1024,
    scoresRenderTimeoutMs: 60_000,
    scoresSynthConcurrency: 1,
    scoresExportMaxQueued: 32,
    scoresExportCacheBytes: 1024 * 1024 * 1024,
    scoresExportCacheAccountShare: 0.25,
  });
});

t.test('values as set', async (t) => {
  const settings = loadSettings({
    SCORES_MAX_MUSICXML_BYTES: '65536',
    SCORES_MXL_MAX_RATIO: '50',
    SCORES_MAX_EXPANDED_MEASURES: '300',
    SCORES_MAX_AUDIO_DURATION: '90s',
    SCORES_RENDER_MAX_MEMORY_MB: '256',
    SCORES_RENDER_TIMEOUT: '2500ms',
    SCORES_SYNTH_CONCURRENCY: '2',
    SCORES_EXPORT_MAX_QUEUED: '0',
    SCORES_EXPORT_CACHE_BYTES: '10485760',
    SCORES_EXPORT_CACHE_ACCOUNT_SHARE: '1',
  });
  t.match(settings, {
    scoresMaxMusicXmlBytes: 65536,
    scoresMxlMaxRatio: 50,
    scoresMaxExpandedMeasures: 300,
    scoresMaxAudioMs: 90_000,
    scoresRenderMaxMemoryMb: 256,
    scoresRenderTimeoutMs: 2500,
    scoresSynthConcurrency: 2,
    scoresExportMaxQueued: 0,
    scoresExportCacheBytes: 10_485_760,
    scoresExportCacheAccountShare: 1,
  });
});

t.test('a bad value names the variable and what it takes', async (t) => {
  t.throws(() => loadSettings({ SCORES_MAX_MUSICXML_BYTES: '16MB' }), { message: 'invalid value for SCORES_MAX_MUSICXML_BYTES: "16MB" (expected an integer from 1024 to 1073741824)' });
  t.throws(() => loadSettings({ SCORES_MXL_MAX_RATIO: '1' }), { message: /^invalid value for SCORES_MXL_MAX_RATIO: "1" \(expected an integer from 2 to/ });
  t.throws(() => loadSettings({ SCORES_RENDER_MAX_MEMORY_MB: '16' }), { message: /^invalid value for SCORES_RENDER_MAX_MEMORY_MB: "16" \(expected an integer from 64 to/ });
  t.throws(() => loadSettings({ SCORES_RENDER_TIMEOUT: 'soon' }), { message: 'invalid value for SCORES_RENDER_TIMEOUT: "soon" (expected a duration such as 10s, 1m30s or 250ms)' });
  t.throws(() => loadSettings({ SCORES_MAX_AUDIO_DURATION: '-1m' }), { message: /^invalid value for SCORES_MAX_AUDIO_DURATION/ });
  t.throws(() => loadSettings({ SCORES_SYNTH_CONCURRENCY: '0' }), { message: /^invalid value for SCORES_SYNTH_CONCURRENCY: "0"/ });
  t.throws(() => loadSettings({ SCORES_EXPORT_CACHE_BYTES: '1000' }), { message: /^invalid value for SCORES_EXPORT_CACHE_BYTES: "1000" \(expected an integer from 1048576 to/ });
  t.throws(() => loadSettings({ SCORES_EXPORT_CACHE_ACCOUNT_SHARE: '0.0' }), { message: 'invalid value for SCORES_EXPORT_CACHE_ACCOUNT_SHARE: "0.0" (expected a number above 0, up to 1)' });
  t.throws(() => loadSettings({ SCORES_EXPORT_CACHE_ACCOUNT_SHARE: '1.5' }), { message: 'invalid value for SCORES_EXPORT_CACHE_ACCOUNT_SHARE: "1.5" (expected a number from 0 to 1)' });
});
