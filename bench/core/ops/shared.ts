/** Input builders and call shapes every family uses. */
import { bytes, fill } from '../fixtures.js';
import type { Call, Shape } from './types.js';

/**
 * A call that cycles through `count` prepared inputs (keys, or key and
 * sealed message pairs), one per call. With one input it is a plain call,
 * so the 'sizes' and 'sweep' parts pay nothing for the rotation.
 */
export function rotating(count: number, use: (i: number) => ReturnType<Call>): Call {
  if (count === 1) return () => use(0);
  const mask = count - 1; // count is a power of two
  let i = 0;
  return () => {
    const out = use(i);
    i = (i + 1) & mask;
    return out;
  };
}

/**
 * `count` views of `length` bytes, each at byteOffset `offset` modulo 16
 * (views are packed 16-byte aligned in one buffer, so a million keys do
 * not cost a million buffers), filled by `write`. One view gets a buffer
 * of its own, as an application's single message would.
 */
export function packed(count: number, length: number, offset: number, write: (i: number, view: Uint8Array) => void): Uint8Array[] {
  if (count === 1) {
    const one = new Uint8Array(length + offset).subarray(offset);
    write(0, one);
    return [one];
  }
  const stride = Math.ceil((length + offset) / 16) * 16;
  const buffer = new Uint8Array(count * stride);
  const views: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const view = buffer.subarray(i * stride + offset, i * stride + offset + length);
    write(i, view);
    views.push(view);
  }
  return views;
}

/** `count` keys of `length` bytes from `label`'s stream. */
export function keySet(label: string, count: number, length = 32): Uint8Array[] {
  const stream = bytes(label, count * length);
  return packed(count, length, 0, (i, view) => view.set(stream.subarray(i * length, (i + 1) * length)));
}

/** The message of a shape, at its byteOffset. */
export function message(label: string, shape: Shape): Uint8Array {
  return packed(1, shape.size, shape.offset, (_, view) => fill(`${label} ${shape.size}`, view))[0]!;
}

/** A zeroed buffer for a caller-supplied output, at the shape's byteOffset. */
export function outputBuffer(length: number, shape: Shape): Uint8Array {
  return new Uint8Array(length + shape.offset).subarray(shape.offset);
}
