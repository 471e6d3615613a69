#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; install it when it is missing (CI machines start without it).
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$browser" ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "Chromium is missing at $browser and installing it needs root: run 'sudo apt-get install chromium', or set CHROMIUM_PATH." >&2
  exit 1
fi
echo "Installing Debian's chromium package for the browser tests…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
"$browser" --version
