import { open, type FileHandle } from 'node:fs/promises';

/**
 * The few things the audio exports need of RIFF WAVE files (16-bit PCM, as FluidSynth writes
 * them), done on the file in place: a WAV of ten minutes is 100 MB, which must never sit in memory.
 */
export interface WavLayout {
  sampleRate: number;
  channels: number;
  /** Where the samples start in the file (just past the `data` chunk's header). */
  dataStart: number;
}

/** FluidSynth's header is a few dozen bytes; anything that needs more to reach the samples is not its output. */
const HEADER_READ_BYTES = 64 * 1024;

function chunkId(view: DataView, offset: number): string {
  return String.fromCharCode(view.getUint8(offset), view.getUint8(offset + 1), view.getUint8(offset + 2), view.getUint8(offset + 3));
}

/** The format and where the samples start, from the head of the file. */
export function wavLayout(head: Uint8Array): WavLayout {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (head.byteLength < 12 || chunkId(view, 0) !== 'RIFF' || chunkId(view, 8) !== 'WAVE') throw new Error('not a RIFF WAVE file');
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; code: number } | undefined;
  while (offset + 8 <= head.byteLength) {
    const id = chunkId(view, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (body + 16 > head.byteLength) break;
      format = { code: view.getUint16(body, true), channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true), bits: view.getUint16(body + 14, true) };
    } else if (id === 'data') {
      if (format === undefined) throw new Error('WAVE data before its fmt chunk');
      if (format.code !== 1 || format.bits !== 16) throw new Error(`WAVE format ${format.code} with ${format.bits}-bit samples; 16-bit PCM expected`);
      return { sampleRate: format.sampleRate, channels: format.channels, dataStart: body };
    }
    offset = body + size + (size & 1);
  }
  throw new Error('WAVE file without a data chunk');
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/**
 * Cuts or pads the WAV at `path` in place to exactly `seconds` (padding is silence: the file is
 * extended with zeros), fades out its last `fadeSeconds` so a note cut at the end does not
 * click, and rewrites the sizes in its header. Memory used: the header and the faded end.
 */
export async function fitWavFile(path: string, seconds: number, fadeSeconds = 0.05): Promise<void> {
  const file = await open(path, 'r+');
  try {
    const { sampleRate, channels, dataStart } = wavLayout(await readAt(file, 0, HEADER_READ_BYTES));
    const frameBytes = channels * 2;
    const frames = Math.round(seconds * sampleRate);
    const dataBytes = frames * frameBytes;
    await file.truncate(dataStart + dataBytes);

    const fadeFrames = Math.min(frames, Math.round(fadeSeconds * sampleRate));
    const fadeStart = dataStart + (frames - fadeFrames) * frameBytes;
    const tail = await readAt(file, fadeStart, fadeFrames * frameBytes);
    const samples = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
    for (let frame = 0; frame < fadeFrames; frame++) {
      const gain = (fadeFrames - frame) / fadeFrames;
      for (let channel = 0; channel < channels; channel++) {
        const at = (frame * channels + channel) * 2;
        samples.setInt16(at, Math.round(samples.getInt16(at, true) * gain), true);
      }
    }
    await file.write(tail, 0, tail.byteLength, fadeStart);

    const size = new DataView(new ArrayBuffer(4));
    size.setUint32(0, dataStart + dataBytes - 8, true);
    await file.write(new Uint8Array(size.buffer), 0, 4, 4);
    size.setUint32(0, dataBytes, true);
    await file.write(new Uint8Array(size.buffer), 0, 4, dataStart - 4);
  } finally {
    await file.close();
  }
}
