# shellcheck shell=bash
# scripts/setup.sh: the one place that makes this machine able to build and
# test ttft-lab. Sourced (not run) by scripts/serve, scripts/test,
# scripts/release and scripts/size-report.
#
# It is idempotent: each step first checks whether its tool is already there
# at the right version and only installs what is missing, so a second run
# takes a second or two. It deliberately does not build anything, start
# servers or touch files outside the repo other than the cargo bin dir, the
# npm cache and apt; that is the calling script's job.
#
# Target machine: Debian, rustup stable, Node 20 + npm, root (or sudo), and
# only the crates.io / npm / PyPI / Debian registries reachable. See
# ../shared/TOOLCHAIN.md for why each version is what it is.

set -euo pipefail

# The repo root, whichever script sourced us.
TTFT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export TTFT_ROOT

# Trunk 0.22 needs a newer rustc than the machine's 1.95; 0.21.14 is the one
# known to work.
TTFT_TRUNK_VERSION="0.21.14"

say() { printf '\033[1m==>\033[0m %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
fail() {
  printf '\033[1;31mFAILED:\033[0m %s\n' "$*" >&2
  exit 1
}

# Run a command as root: directly when we are root, else through sudo.
as_root() {
  if [ "$(id -u)" = "0" ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    fail "need root to run: $* (no sudo available)"
  fi
}

# Cargo installs binaries here; make sure they are found even in a shell
# that has not sourced ~/.cargo/env.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

ensure_rust() {
  command -v cargo >/dev/null 2>&1 ||
    fail "cargo not found: install Rust with rustup (stable) first, see https://rustup.rs"
  if ! rustup target list --installed 2>/dev/null | grep -qx 'wasm32-unknown-unknown'; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  # Clippy is part of the default rustup profile but not the minimal one.
  if ! cargo clippy --version >/dev/null 2>&1; then
    say "adding clippy"
    rustup component add clippy
  fi
}

ensure_trunk() {
  local have=""
  if command -v trunk >/dev/null 2>&1; then
    have="$(trunk --version 2>/dev/null | awk '{print $2}')"
  fi
  if [ "$have" != "$TTFT_TRUNK_VERSION" ]; then
    say "installing Trunk $TTFT_TRUNK_VERSION (found: ${have:-none}; about 7 minutes on 2 cores)"
    cargo install trunk --version "$TTFT_TRUNK_VERSION" --locked
  fi
}

# The wasm-bindgen version the app is locked to. The CLI must match it
# exactly or the generated glue does not fit the compiled wasm.
wasm_bindgen_locked_version() {
  if [ ! -f "$TTFT_ROOT/Cargo.lock" ]; then
    (cd "$TTFT_ROOT" && cargo generate-lockfile >/dev/null 2>&1) ||
      fail "no Cargo.lock and could not generate one"
  fi
  awk '
    $0 == "[[package]]" { in_wb = 0 }
    $0 == "name = \"wasm-bindgen\"" { in_wb = 1; next }
    in_wb && /^version = / { gsub(/"/, "", $3); print $3; exit }
  ' "$TTFT_ROOT/Cargo.lock"
}

ensure_wasm_bindgen() {
  local want have=""
  want="$(wasm_bindgen_locked_version)"
  [ -n "$want" ] || fail "could not read the wasm-bindgen version from Cargo.lock"
  if command -v wasm-bindgen >/dev/null 2>&1 && command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
    have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')"
  fi
  if [ "$have" != "$want" ]; then
    say "installing wasm-bindgen-cli $want to match Cargo.lock (found: ${have:-none}; about 2 minutes)"
    # Not --locked: for 0.2.130 a locked dependency is missing from the
    # registry, so the locked install fails (see TOOLCHAIN.md).
    cargo install wasm-bindgen-cli --version "$want"
  fi
}

ensure_node_packages() {
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 ||
    fail "node and npm not found: install Node.js 20 or newer (Debian: apt-get install nodejs npm)"
  local stamp="$TTFT_ROOT/node_modules/.package-lock.json"
  if [ ! -x "$TTFT_ROOT/node_modules/.bin/wasm-opt" ] ||
    [ ! -d "$TTFT_ROOT/node_modules/playwright-core" ] ||
    [ ! -d "$TTFT_ROOT/node_modules/@axe-core/playwright" ] ||
    [ ! -d "$TTFT_ROOT/node_modules/scorm-again" ] ||
    [ ! -d "$TTFT_ROOT/node_modules/@gfx/zopfli" ] ||
    [ ! -d "$TTFT_ROOT/node_modules/terser" ] ||
    [ ! -f "$stamp" ] || [ "$TTFT_ROOT/package-lock.json" -nt "$stamp" ]; then
    say "installing npm packages (npm ci: playwright-core, @axe-core/playwright, binaryen, scorm-again, @gfx/zopfli, terser)"
    (cd "$TTFT_ROOT" && npm ci --no-audit --no-fund --loglevel=error) ||
      fail "npm ci failed"
  fi
  # binaryen 132 from npm must win over Debian's wasm-opt 108, whose output
  # dies at start with "WebAssembly.Table.set(): Argument 1 is invalid".
  export PATH="$TTFT_ROOT/node_modules/.bin:$PATH"
}

ensure_chromium() {
  if [ ! -x /usr/bin/chromium ] || ! command -v chromedriver >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 ||
      fail "Chromium and chromedriver are missing and apt-get is not available: install them by hand"
    say "installing chromium and chromium-driver with apt-get (a few minutes)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  [ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is still missing after apt-get"
}

# A small check that the wasm-opt Trunk will find is the right one.
check_wasm_opt() {
  local v
  v="$(wasm-opt --version 2>/dev/null | awk '{print $3}')"
  [ "$v" = "132" ] || fail "wasm-opt on PATH is version '${v:-none}', expected 132 from node_modules/.bin"
}

# Everything, in the order that fails fastest. Scripts that need less can
# call the single steps instead.
ensure_all() {
  ensure_rust
  ensure_node_packages
  check_wasm_opt
  ensure_chromium
  ensure_trunk
  ensure_wasm_bindgen
}
