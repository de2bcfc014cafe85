#!/bin/sh
# Build the Rust example offline and print the path of the binary.
#   examples/rust_cral/build.sh            -> target/release/rust_cral
#   examples/rust_cral/build.sh --broken   -> target-broken/release/rust_cral (feature
#                                             "broken", README.md), beside the good one
# cargo is taken from PATH, else from ~/.cargo/bin. Build output goes to stderr, so
# stdout is only the path (BIN=$(examples/rust_cral/build.sh)).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
    "") target="$here/target"; features="" ;;
    --broken) target="$here/target-broken"; features="--features broken" ;;
    *) echo "usage: $0 [--broken]" >&2; exit 2 ;;
esac
cargo=$(command -v cargo || true)
if [ -z "$cargo" ] && [ -x "$HOME/.cargo/bin/cargo" ]; then
    cargo="$HOME/.cargo/bin/cargo"
fi
if [ -z "$cargo" ]; then
    echo "build.sh: cargo not found on PATH or in ~/.cargo/bin (install Rust: https://rustup.rs)" >&2
    exit 127
fi
# shellcheck disable=SC2086  # $features is empty or one option
"$cargo" build --release --offline --quiet --manifest-path "$here/Cargo.toml" --target-dir "$target" $features >&2
echo "$target/release/rust_cral"
