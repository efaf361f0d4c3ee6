/** fourfold/parallel's secretstream namespace: the root's, with the whole-stream functions running in a worker. */
export {
  ABYTES,
  HEADER_BYTES,
  KEY_BYTES,
  MESSAGE_BYTES_MAX,
  TAG_FINAL,
  TAG_MESSAGE,
  TAG_PUSH,
  TAG_REKEY,
  initPull,
  initPush,
  type Pulled,
  type SecretstreamPull,
  type SecretstreamPush,
} from '../secretstream/index.js';
export { decryptStream, encryptStream } from '../secretstream/parallel.js';
export type { StreamChunk, StreamOptions } from '../secretstream/stream.js';
