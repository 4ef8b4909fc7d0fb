/**
 * The media type of uploaded bytes, from their signature rather than the client's word: a file
 * that is not what an operation takes gets a clear 400 instead of being stored.
 */
function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, i) => bytes[at + i] === byte);
}

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

export function imageType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

export function audioType(bytes: Uint8Array): string | undefined {
  // MP3: an ID3v2 tag, or an MPEG audio frame header (11 sync bits, then layer III).
  if (startsWith(bytes, ascii('ID3')) || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe6) === 0xe2)) return 'audio/mpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WAVE'), 8)) return 'audio/wav';
  if (startsWith(bytes, ascii('OggS'))) return 'audio/ogg';
  if (startsWith(bytes, ascii('fLaC'))) return 'audio/flac';
  if (startsWith(bytes, ascii('ftyp'), 4)) return 'audio/mp4';
  return undefined;
}
