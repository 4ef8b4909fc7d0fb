/**
 * The few things the audio exports need of RIFF WAVE files (16-bit PCM, as FluidSynth writes
 * them): read the format and samples, and write a file of an exact length.
 */
export interface PcmAudio {
  sampleRate: number;
  channels: number;
  /** Interleaved 16-bit samples. */
  samples: Int16Array;
}

function chunkId(view: DataView, offset: number): string {
  return String.fromCharCode(view.getUint8(offset), view.getUint8(offset + 1), view.getUint8(offset + 2), view.getUint8(offset + 3));
}

export function readWav(bytes: Uint8Array): PcmAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 12 || chunkId(view, 0) !== 'RIFF' || chunkId(view, 8) !== 'WAVE') throw new Error('not a RIFF WAVE file');
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; code: number } | undefined;
  while (offset + 8 <= bytes.byteLength) {
    const id = chunkId(view, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = { code: view.getUint16(body, true), channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true), bits: view.getUint16(body + 14, true) };
    } else if (id === 'data') {
      if (format === undefined) throw new Error('WAVE data before its fmt chunk');
      if (format.code !== 1 || format.bits !== 16) throw new Error(`WAVE format ${format.code} with ${format.bits}-bit samples; 16-bit PCM expected`);
      const length = Math.min(size, bytes.byteLength - body) & ~1;
      // WAVE is little-endian, as every host Node runs on: the bytes are the samples.
      const samples = new Int16Array(bytes.slice(body, body + length).buffer);
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    offset = body + size + (size & 1);
  }
  throw new Error('WAVE file without a data chunk');
}

export function writeWav(audio: PcmAudio): Uint8Array {
  const dataBytes = audio.samples.length * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, audio.channels, true);
  view.setUint32(24, audio.sampleRate, true);
  view.setUint32(28, audio.sampleRate * audio.channels * 2, true);
  view.setUint16(32, audio.channels * 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  bytes.set(new Uint8Array(audio.samples.buffer, audio.samples.byteOffset, dataBytes), 44);
  return bytes;
}

/** How long the audio lasts, in seconds. */
export function durationOf(audio: PcmAudio): number {
  return audio.samples.length / audio.channels / audio.sampleRate;
}

/**
 * The audio cut or padded with silence to exactly `seconds`, the last `fadeSeconds` faded out so
 * a note cut at the end does not click.
 */
export function fitToDuration(audio: PcmAudio, seconds: number, fadeSeconds = 0.05): PcmAudio {
  const frames = Math.round(seconds * audio.sampleRate);
  const samples = new Int16Array(frames * audio.channels);
  samples.set(audio.samples.subarray(0, samples.length));
  const fadeFrames = Math.min(frames, Math.round(fadeSeconds * audio.sampleRate));
  for (let frame = frames - fadeFrames; frame < frames; frame++) {
    const gain = (frames - frame) / fadeFrames;
    for (let channel = 0; channel < audio.channels; channel++) {
      const i = frame * audio.channels + channel;
      samples[i] = Math.round((samples[i] as number) * gain);
    }
  }
  return { ...audio, samples };
}
