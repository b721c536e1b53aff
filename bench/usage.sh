# Sourced by the bench scripts: a script's usage is its header comment (from
# its second line to the first line that is not a comment), so the help they
# print cannot fall out of step with the header.

# gk_usage SCRIPT: SCRIPT's header, without the comment marks.
gk_usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$1"; }

# gk_usage_check MIN MAX ARGS...: the calling script's header and exit status 2
# when its first argument is -h or --help, or it has fewer than MIN or more
# than MAX arguments.
gk_usage_check() {
  local min=$1 max=$2
  shift 2
  if [ $# -lt "$min" ] || [ $# -gt "$max" ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    gk_usage "$0"
    exit 2
  fi
}
