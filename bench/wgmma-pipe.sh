#!/usr/bin/env bash
# xgemm-wgmma's PIPE=1 lines (a group of wgmmas in flight across tiles), as
# measured on 2026-11-23: bench/wgmma-lines.sh with its defaults.
# usage: bench/wgmma-pipe.sh OUTDIR [ARCHIVE.tar.gz]
exec bash "$(dirname "$0")/wgmma-lines.sh" "$@"
