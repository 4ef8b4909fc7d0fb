/**
 * What the audio exports hold, read by tools independent of the service: Python's `wave` module
 * reads WAV, the LAME decoder turns MP3 back into WAV.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface AudioFacts {
  channels: number;
  sampleRate: number;
  seconds: number;
  /** Root mean square of the samples, from 0 (silence) to 1 (full scale). */
  rms: number;
}

const READ_WAV = `
import sys, wave, array, math, json
w = wave.open(sys.stdin.buffer, 'rb')
assert w.getsampwidth() == 2, 'expected 16-bit samples'
samples = array.array('h', w.readframes(w.getnframes()))
frames = len(samples) // w.getnchannels()
rms = math.sqrt(sum(s * s for s in samples) / max(1, len(samples))) / 32768
print(json.dumps({'channels': w.getnchannels(), 'sampleRate': w.getframerate(), 'seconds': frames / w.getframerate(), 'rms': rms}))
`;

export function wavFacts(wav: Uint8Array): AudioFacts {
  return JSON.parse(execFileSync('python3', ['-c', READ_WAV], { input: wav, maxBuffer: 1 << 20 }).toString()) as AudioFacts;
}

/** MP3 decoded by `lame --decode`, which honours the encoder's gapless tag (delay and padding dropped). */
export function mp3Facts(mp3: Uint8Array): AudioFacts {
  const dir = mkdtempSync(join(tmpdir(), 'mp3-facts-'));
  try {
    writeFileSync(join(dir, 'in.mp3'), mp3);
    execFileSync('lame', ['--quiet', '--decode', join(dir, 'in.mp3'), join(dir, 'out.wav')]);
    return wavFacts(readFileSync(join(dir, 'out.wav')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
