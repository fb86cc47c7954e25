#!/usr/bin/env bash
# Ensures Debian's chromium and chromium-driver are installed (never downloads a browser itself).
set -euo pipefail

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: installing chromium and chromium-driver with apt-get..." >&2
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
         --no-install-recommends chromium chromium-driver; } >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    echo "install-chromium: apt-get failed" >&2
    exit 1
  fi
  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    echo "install-chromium: done" >&2
    exit 0
  fi
  echo "install-chromium: apt-get finished but /usr/bin/chromium or /usr/bin/chromedriver is missing" >&2
  exit 1
fi

cat >&2 <<'MSG'
install-chromium: /usr/bin/chromium and /usr/bin/chromedriver are required for browser tests.
Install them as root on Debian/Ubuntu with:
  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium chromium-driver
MSG
exit 1
