#!/bin/sh
# Refreshes resources/prices/genai-prices.json from the npm package @pydantic/genai-prices.
#   resources/prices/refresh-prices.sh [VERSION]
# Without VERSION the version pinned in package.json is used; with one, package.json and its
# lock file are updated to it. Run by hand and commit the result (and update README.md's
# version and date): Loopscope never fetches prices at run time.
set -eu
cd "$(dirname "$0")"
if [ $# -ge 1 ]; then
    npm install --save-exact --no-audit --no-fund "@pydantic/genai-prices@$1"
else
    npm ci --no-audit --no-fund
fi
cp node_modules/@pydantic/genai-prices/LICENSE LICENSE
node extract-prices.mjs "$(date -u +%Y-%m-%d)"
rm -rf node_modules
