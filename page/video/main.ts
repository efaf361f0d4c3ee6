/**
 * The example page's script: plays the age-encrypted video the address's
 * fragment names, `index.html#src=film.webm.age&identity=AGE-SECRET-KEY-1...`
 * (a fragment never goes to the server; a real page would get the
 * identity from its user, or a passkey). The Service Worker (sw.ts)
 * decrypts what the element asks for; the element plays `film.webm`, a
 * path only the worker answers.
 */
import { addVideo, serviceWorker } from './player.js';

const status = document.getElementById('status')!;
const video = document.getElementById('video') as HTMLVideoElement;

async function main(): Promise<void> {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const src = fragment.get('src');
  const identity = fragment.get('identity');
  if (src === null || identity === null) {
    status.textContent = 'Give the file and its identity in the address: index.html#src=film.webm.age&identity=AGE-SECRET-KEY-1...';
    return;
  }
  const worker = await serviceWorker();
  const path = `./play/${src
    .replace(/\.age$/, '')
    .split('/')
    .at(-1)}`;
  const { size } = await addVideo(worker, { encrypted: src, path, identity });
  status.textContent = `${src}: ${size} bytes of plaintext, decrypted by range as the video asks for them`;
  video.addEventListener('error', () => {
    status.textContent = `stopped: ${video.error?.message || `media error ${video.error?.code}`} (a chunk that does not verify stops the video)`;
  });
  video.src = path;
}

main().catch((e: unknown) => {
  status.textContent = `failed: ${e instanceof Error ? e.message : String(e)}`;
});
