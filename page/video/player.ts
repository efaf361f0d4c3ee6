/**
 * The page's side of the example: registers the Service Worker (sw.ts),
 * waits until it controls the page (so that the video element's requests
 * go through it), and hands it each video: the address of the encrypted
 * file, the path the element plays, and the identity that opens it. The
 * worker opens the file (its header and final chunk) before it answers,
 * so a wrong identity or a file that is not age fails here, not in the
 * element.
 */

/** What the worker is told of a video. */
export interface VideoSetup {
  /** The age file on the server (it must answer Range requests). */
  readonly encrypted: string;
  /** The path (under the worker's scope) the video element plays. */
  readonly path: string;
  /** The identity (AGE-SECRET-KEY-1...) that opens it. */
  readonly identity: string;
  /** The plaintext's Content-Type; default video/webm. */
  readonly contentType?: string;
  /** Chunks the worker's source fetches ahead of each read (httpRangeSource's readAhead). */
  readonly readAhead?: number;
}

/** The Service Worker of `script`, once it controls this page. */
export async function serviceWorker(script = './sw.js'): Promise<ServiceWorker> {
  const container = navigator.serviceWorker;
  if (container === undefined) throw new Error('no Service Worker here: the page needs a secure context (https:, or localhost)');
  const changed = new Promise((resolve) => container.addEventListener('controllerchange', resolve, { once: true }));
  await container.register(script, { scope: './' });
  await container.ready;
  // sw.ts claims its clients when it activates: the page is controlled without a reload.
  if (container.controller === null) await changed;
  return container.controller!;
}

/** Sends `message` to the worker and resolves with its answer (a rejection where it answers { error }). */
export function ask<T>(worker: ServiceWorker, message: object): Promise<T> {
  const channel = new MessageChannel();
  return new Promise<T>((resolve, reject) => {
    channel.port1.onmessage = (e: MessageEvent) => {
      channel.port1.close();
      const answer = e.data as { error?: string };
      if (answer?.error !== undefined) reject(new Error(answer.error));
      else resolve(e.data as T);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

/** Hands a video to the worker; resolves with its plaintext's length once the worker has opened it. */
export function addVideo(worker: ServiceWorker, setup: VideoSetup): Promise<{ size: number }> {
  const encrypted = new URL(setup.encrypted, location.href).href;
  const path = new URL(setup.path, location.href).pathname;
  return ask(worker, { type: 'add', ...setup, encrypted, path });
}
