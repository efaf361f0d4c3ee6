#!/usr/bin/env bash
# Native reference points for `npm run bench` on this machine (README.md here):
# ChaCha20 and Salsa20 with 128-bit SIMD in C, native libsodium if libsodium-dev is
# installed, and OpenSSL held to 128-bit SSSE3 code.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

# -mavx2 for the VEX (three-operand) encoding V8 also emits; the kernel's vectors stay 128-bit.
gcc -O2 -mavx2 -Wall -o "$build/stream-sse" "$here/stream-sse.c"
"$build/stream-sse"

if [ -e /usr/include/sodium.h ]; then
  gcc -O2 -Wall -o "$build/libsodium" "$here/libsodium.c" -lsodium
  "$build/libsodium"
else
  echo "native libsodium: not measured (apt-get install libsodium-dev)"
fi

# OpenSSL's hand-scheduled assembly held to 128-bit SSSE3: OPENSSL_ia32cap clears AVX
# (CPUID 1 ECX bit 28) in its first word and AVX2, AVX512F and AVX512VL (CPUID 7 EBX
# bits 5, 16 and 31) in its second, so ChaCha20 runs its 4-block SSSE3 code.
if command -v openssl > /dev/null; then
  for alg in chacha20 chacha20-poly1305; do
    echo "openssl speed, 128-bit SSSE3, $alg at 64 KiB (1000s of bytes per second):"
    OPENSSL_ia32cap="~0x1000000000000000:~0x80010020" openssl speed -evp "$alg" -bytes 65536 -seconds 2 2>/dev/null | tail -1
  done
fi
