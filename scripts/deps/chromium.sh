#!/usr/bin/env bash
# Installs Debian's chromium, the headless browser internal/report's tests
# open a generated report in (driven over the DevTools protocol by chromedp).
# Idempotent: apt-get runs only when /usr/bin/chromium is missing. Then it
# starts chromium headless once to prove it runs on this machine.
set -euo pipefail

if [ ! -x /usr/bin/chromium ]; then
	echo "installing chromium with apt-get"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
else
	echo "chromium already installed"
fi

profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
if ! out="$(/usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
	--dump-dom 'data:text/html,<p id=ok>chromium-ok</p>' 2>/dev/null)" || [[ "$out" != *chromium-ok* ]]; then
	echo "chromium is installed but cannot render a page headless: ${out}" >&2
	exit 1
fi
echo "$(/usr/bin/chromium --version 2>/dev/null) runs headless"
