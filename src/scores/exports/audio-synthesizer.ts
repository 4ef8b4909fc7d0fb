import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fitToDuration, readWav, writeWav } from './wav.js';

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
}

/** A program an export needs is not installed: the export is unavailable, not failed. */
export class AudioToolMissing extends Error {}

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'score-audio-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs a program to its end at a lowered priority. */
function run(program: string, args: readonly string[], nice: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(program, args, { encoding: 'buffer' }, (error, _stdout, stderr) => {
      if (error === null) return resolve();
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new AudioToolMissing(`${program} is not installed`));
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
 * encodes MP3. Both run as child processes, off every thread of the service.
 */
export class AudioSynthesizer {
  constructor(private readonly settings: AudioToolsSettings) {}

  /** WAV of the MIDI, exactly `seconds` long: the music's length, so synchronization points end where the audio does. */
  wav(midi: Uint8Array, seconds: number): Promise<Uint8Array> {
    return inTempDir(async (dir) => {
      const midiFile = join(dir, 'score.mid');
      const wavFile = join(dir, 'score.wav');
      await writeFile(midiFile, midi);
      const { fluidsynth, soundfont, sampleRate, nice } = this.settings;
      await run(fluidsynth, ['-n', '-i', '-q', '-g', '0.6', '-r', String(sampleRate), '-T', 'wav', '-O', 's16', '-F', wavFile, soundfont, midiFile], nice);
      return writeWav(fitToDuration(readWav(await readFile(wavFile)), seconds));
    });
  }

  /** MP3 of the WAV. Files, not pipes: LAME writes its gapless-playback tag (encoder delay and padding) only into a seekable output. */
  mp3(wav: Uint8Array): Promise<Uint8Array> {
    return inTempDir(async (dir) => {
      const wavFile = join(dir, 'audio.wav');
      const mp3File = join(dir, 'audio.mp3');
      await writeFile(wavFile, wav);
      const { lame, mp3BitrateKbps, nice } = this.settings;
      await run(lame, ['--quiet', '-b', String(mp3BitrateKbps), wavFile, mp3File], nice);
      return readFile(mp3File);
    });
  }
}
