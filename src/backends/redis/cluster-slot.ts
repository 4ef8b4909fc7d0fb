/**
 * Redis Cluster's hash slot of a key (CRC16/XMODEM of the key, or of its `{hash tag}`, modulo
 * 16384), as the cluster specification defines it, so a request's keys can be grouped by the node
 * that owns them before anything is sent.
 */
export const CLUSTER_SLOTS = 16384;

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
})();

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] as number);
  return crc;
}

/** Only the part between the first `{` and the next `}` is hashed, when that part is not empty. */
function hashedPart(key: Buffer): Buffer {
  const open = key.indexOf(0x7b);
  if (open < 0) return key;
  const close = key.indexOf(0x7d, open + 1);
  if (close < 0 || close === open + 1) return key;
  return key.subarray(open + 1, close);
}

export function clusterSlot(key: string): number {
  return crc16(hashedPart(Buffer.from(key, 'utf8'))) % CLUSTER_SLOTS;
}
