#!/usr/bin/env bash
# Checks the shipped alert rules and runs their unit tests with Prometheus's own promtool (ADR 0040):
#   promtool check rules docs/prometheus/dispatch-alerts.yml
#   promtool test rules  docs/prometheus/dispatch-alerts.test.yml
# promtool comes from Debian's prometheus package, installed here when missing (as root with apt-get), never
# downloaded by the build; elsewhere install it yourself (or skip the tests with -DskipTests).
set -euo pipefail
rules_dir="${1:?usage: promtool-test.sh <directory of dispatch-alerts.yml>}"

if ! command -v promtool >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "promtool-test: installing Debian's prometheus package for promtool..." >&2
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus; } \
         >"$log" 2>&1; then
      tail -n 20 "$log" >&2
      echo "promtool-test: apt-get failed" >&2
      exit 1
    fi
  else
    cat >&2 <<'MSG'
promtool-test: promtool is required to test the alert rules. Install it on Debian/Ubuntu with
  sudo apt-get update && sudo apt-get install -y --no-install-recommends prometheus
MSG
    exit 1
  fi
fi

cd "$rules_dir"
promtool check rules dispatch-alerts.yml
promtool test rules dispatch-alerts.test.yml
