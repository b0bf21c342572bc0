#!/usr/bin/env bash
# wine-test.sh builds packages' tests for Windows into bin/wine-tests/
# and runs them under Wine, so that the plugin's Windows code (the parent
# watch's wait on Terraform's process handle, the journal's LockFileEx)
# runs on a Linux machine, child processes and kills included.
#
#   scripts/wine-test.sh [--require] PACKAGE...
#
# Running needs Wine (Debian: wine64 and wine) and MinGW-w64's C compiler
# (gcc-mingw-w64-x86-64-win32); without either it builds the tests, says
# it did not run them and exits 0, or 1 with --require. They are not among make test's prerequisites: about
# 1 GB installed (Wine 700 MB, MinGW 360 MB) for tests Wine runs on its
# own reimplementation of Windows, which can catch a misused call but
# proves nothing of Windows itself.
#
# Go's runtime (1.22+) loads bcryptprimitives.dll for ProcessPrng, which
# Debian 12's Wine 8.0 lacks: the script builds a stand-in (ProcessPrng
# over RtlGenRandom, the system generator Windows' own draws from) into a
# Wine prefix of its own, bin/wine, made on first use.
set -euo pipefail
cd "$(dirname "$0")/.."

require=0
if [[ "${1:-}" == "--require" ]]; then
	require=1
	shift
fi
[[ $# -gt 0 ]] || { echo "usage: scripts/wine-test.sh [--require] PACKAGE..." >&2; exit 2; }

exes=()
for pkg in "$@"; do
	exe="$PWD/bin/wine-tests/$(basename "$pkg").test.exe"
	mkdir -p "$(dirname "$exe")"
	GOOS=windows GOARCH=amd64 "${GO:-go}" test -c -o "$exe" "$pkg"
	exes+=("$exe")
done

wine=$(command -v wine64 || command -v wine || true)
cc=$(command -v x86_64-w64-mingw32-gcc || true)
if [[ -z "$wine" || -z "$cc" ]]; then
	msg="wine-test: built, not run: running needs wine64 (or wine) and x86_64-w64-mingw32-gcc on PATH (Debian: apt-get install wine64 wine gcc-mingw-w64-x86-64-win32)"
	if [[ $require -eq 1 ]]; then
		echo "ERROR: $msg" >&2
		exit 1
	fi
	echo "$msg"
	exit 0
fi

export WINEPREFIX="$PWD/bin/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
dll="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
if [[ ! -f "$dll" ]]; then
	echo "wine-test: making the Wine prefix $WINEPREFIX"
	mkdir -p "$WINEPREFIX"
	"$wine" wineboot -i >/dev/null 2>&1 || true
	src=$(mktemp -d)
	trap 'rm -rf "$src"' EXIT
	cat >"$src/bcryptprimitives.c" <<'C'
#include <windows.h>
#include <ntsecapi.h>
/* ProcessPrng as Windows' bcryptprimitives.dll exports it. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T n) {
	while (n > 0) {
		ULONG k = n > 0x10000000 ? 0x10000000 : (ULONG)n;
		if (!RtlGenRandom(data, k)) return FALSE;
		data += k;
		n -= k;
	}
	return TRUE;
}
C
	"$cc" -O2 -shared -o "$dll" "$src/bcryptprimitives.c" -ladvapi32
fi

status=0
for exe in "${exes[@]}"; do
	echo "wine-test: $(basename "$exe")"
	"$wine" "$exe" -test.count=1 -test.timeout=5m || status=1
done
exit $status
