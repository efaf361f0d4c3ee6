#!/usr/bin/env bash
# Native reference points for `npm run bench` on this machine (README.md here):
# ChaCha20 with 128-bit SIMD in C, and native libsodium if libsodium-dev is installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

# -mavx2 for the VEX (three-operand) encoding V8 also emits; the kernel's vectors stay 128-bit.
gcc -O2 -mavx2 -Wall -o "$build/chacha-sse" "$here/chacha-sse.c"
"$build/chacha-sse"

if [ -e /usr/include/sodium.h ]; then
  gcc -O2 -Wall -o "$build/libsodium" "$here/libsodium.c" -lsodium
  "$build/libsodium"
else
  echo "native libsodium: not measured (apt-get install libsodium-dev)"
fi
