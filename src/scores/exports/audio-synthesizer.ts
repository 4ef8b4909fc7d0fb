import { execFile } from 'node:child_process';
import { setPriority } from 'node:os';
import { ExportOverLimit } from './export-errors.js';
import { fitWavFile } from './wav.js';

export interface AudioToolsSettings {
  /** The FluidSynth executable (Debian package `fluidsynth`). */
  fluidsynth: string;
  /** The LAME MP3 encoder executable (Debian package `lame`). */
  lame: string;
  /** A General MIDI SoundFont (.sf2), such as Debian's /usr/share/sounds/sf2/default-GM.sf2. */
  soundfont: string;
  sampleRate: number;
  mp3BitrateKbps: number;
  /** Nice value the synthesiser and encoder run at, so decisions keep the CPU first. */
  nice: number;
  /** SCORES_RENDER_TIMEOUT: a run that takes longer is killed. */
  timeoutMs: number;
}

/** A program an export needs is not installed: the export is unavailable, not failed. */
export class AudioToolMissing extends Error {}

/** Runs a program to its end at a lowered priority, and kills it past its time. */
function run(program: string, args: readonly string[], nice: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(program, args, { encoding: 'buffer', timeout: timeoutMs, killSignal: 'SIGKILL' }, (error, _stdout, stderr) => {
      if (error === null) return resolve();
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new AudioToolMissing(`${program} is not installed`));
      if (error.killed) return reject(new ExportOverLimit(`${program} took longer than SCORES_RENDER_TIMEOUT (${timeoutMs} ms)`));
      reject(new Error(`${program} failed: ${stderr.toString().trim() || error.message}`));
    });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // The program may already have finished; its priority no longer matters.
      }
    }
  });
}

/**
 * Real audio of the notes: FluidSynth renders the MIDI with a General MIDI SoundFont, LAME
 * encodes MP3. Both run as child processes, off every thread of the service, reading and writing
 * files: the audio is written to disk as it is made and never held in memory here.
 */
export class AudioSynthesizer {
  constructor(private readonly settings: AudioToolsSettings) {}

  /** Writes the WAV of the MIDI file to `wavFile`, exactly `seconds` long: the music's length, so synchronization points end where the audio does. */
  async wav(midiFile: string, seconds: number, wavFile: string): Promise<void> {
    const { fluidsynth, soundfont, sampleRate, nice, timeoutMs } = this.settings;
    await run(fluidsynth, ['-n', '-i', '-q', '-g', '0.6', '-r', String(sampleRate), '-T', 'wav', '-O', 's16', '-F', wavFile, soundfont, midiFile], nice, timeoutMs);
    await fitWavFile(wavFile, seconds);
  }

  /** Writes the MP3 of the WAV file to `mp3File`. Files, not pipes: LAME writes its gapless-playback tag (encoder delay and padding) only into a seekable output. */
  async mp3(wavFile: string, mp3File: string): Promise<void> {
    const { lame, mp3BitrateKbps, nice, timeoutMs } = this.settings;
    await run(lame, ['--quiet', '-b', String(mp3BitrateKbps), wavFile, mp3File], nice, timeoutMs);
  }
}
