/**
 * The calling thread as age's runner (pipeline.ts Runner), for
 * fourfold/age: a one-shot payload sealed or opened at once, a stream's
 * pieces as they come, a file call's pieces one at a time between turns
 * of the event loop. The pool's runner (parallel/age-pool.ts) does the
 * same on every core, and uses these for what it keeps on this thread.
 */
import {
  BLOB_PIECE_CHUNKS,
  bufferFor,
  type FilePayload,
  type FilePiece,
  isBlob,
  openFilePiece,
  pieceBuffer,
  type PieceInput,
  pieceOf,
  type PieceOutcome,
  piecesOf,
  type PieceSource,
  readBefore,
  sealFilePiece,
} from './file-pieces.js';
import { PIECE_CHUNKS } from './payload.js';
import { doPiece, openHere, type Runner, sealHere } from './pipeline.js';
import { engine, ownEngine } from '../chacha/tiers.js';
import { ticker } from '../pool/turns.js';

/**
 * Does `p` here, in `buffer` (a piece's sealed bytes long), on this
 * thread's own engine (no array per chunk: chacha/tiers.ts ownEngine),
 * reading `source` (p.from unless its bytes were read before).
 */
export const filePieceHere = (payload: FilePayload, p: FilePiece, buffer: Uint8Array, source: PieceSource | PieceInput = p.from): PieceOutcome =>
  (payload.opening ? openFilePiece : sealFilePiece)(ownEngine(), payload.key, p, buffer, source);

/**
 * filePieceHere for a piece of any source: a Blob's bytes are read first,
 * asynchronously (a page's thread has no FileReaderSync), a piece at a time.
 */
export async function anyPieceHere(payload: FilePayload, p: FilePiece, buffer: Uint8Array): Promise<PieceOutcome> {
  if (!isBlob(p.from)) return filePieceHere(payload, p, buffer);
  const bytes = new Uint8Array(await p.from.slice(p.readAt, p.readAt + p.length).arrayBuffer());
  return filePieceHere(payload, p, buffer, readBefore(bytes, p.readAt));
}

/** A file call's pieces on this thread: one at a time, a turn of the event loop after each. */
async function filesHere(payload: FilePayload, after: (p: FilePiece, outcome: PieceOutcome) => void): Promise<void> {
  let buffer = pieceBuffer();
  const turns = ticker();
  try {
    for (const { start, length } of piecesOf(payload, isBlob(payload.from) ? BLOB_PIECE_CHUNKS : PIECE_CHUNKS)) {
      const p = pieceOf(payload, start, length);
      buffer = bufferFor(p, buffer);
      after(p, await anyPieceHere(payload, p, buffer));
      await turns.tick();
    }
  } finally {
    turns.close();
  }
}

/** This thread's engine: payloads at once, a stream's pieces as they come, a file's pieces between turns. */
export const hereRunner: Runner = {
  pieceChunks: 16,
  seal: sealHere,
  open: openHere,
  lane: (key, opening) => ({
    synchronous: true,
    add(p) {
      doPiece(engine(), key, p, opening);
      return [p];
    },
    finish: () => [],
    abandon: () => {},
    buffer: (bytes) => new Uint8Array(bytes),
  }),
  files: filesHere,
  done: () => {},
};
