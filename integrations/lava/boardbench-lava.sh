#!/bin/sh
# The steps of integrations/lava/boardbench.yaml (run inside lava-test-shell on the device).
#
# 1. `$BOARDBENCH MODE -o $OUTPUT/result.json OPTIONS…` (ARGS = MODE OPTIONS…); its exit code becomes the case
#    `boardbench-run` (0 valid and 2 "completed, not to be trusted" pass: the findings say
#    why; 3 "never idle", 64 usage error, 1 error and signals fail).
# 2. `boardbench export lava` turns the document into lava-test-case lines, which are run.
# 3. The document is kept: uploaded to RESULTS_URL (POST /api/v1/runs, bearer token), with
#    a lava-test-reference to the stored run; and printed into the job log between
#    BOARDBENCH-DOCUMENT-BEGIN/END markers (gzip + base64) unless DOCUMENT_IN_LOG=false.
#
# Every parameter has the default of the test definition, so the script also runs by hand.
set -u

BOARDBENCH=${BOARDBENCH:-boardbench}
ARGS=${ARGS:-run --unattended}
OUTPUT=${OUTPUT:-/tmp/boardbench-lava}
RESULTS_URL=${RESULTS_URL:-}
RESULTS_TOKEN=${RESULTS_TOKEN:-${BOARDBENCH_TOKEN:-}}
DOCUMENT_IN_LOG=${DOCUMENT_IN_LOG:-true}

mkdir -p "$OUTPUT" || exit 1
doc="$OUTPUT/result.json"
cases="$OUTPUT/lava-test-cases.sh"
rm -f "$doc" "$cases"

# ARGS is split into words on purpose (a mode and its options); `-o FILE` goes right after
# the mode, so a command after `--` (env --for geekbench -- CMD) stays last.
# shellcheck disable=SC2086
set -- $ARGS
mode=${1:-run}
[ $# -gt 0 ] && shift
"$BOARDBENCH" "$mode" -o "$doc" "$@"
rc=$?
# The exit codes (docs/exit-codes.md): 0 valid, 2 completed but not to be trusted (a document was written; the
# findings say why), 1 error, 3 never idle, 64 usage error (nothing ran), 128+N a signal.
case $rc in
  0 | 2) lava-test-case boardbench-run --result pass ;;
  64)
    echo "boardbench: usage error (exit 64): check ARGS ($ARGS)"
    lava-test-case boardbench-run --result fail
    ;;
  3)
    echo "boardbench: the device never became idle (exit 3)"
    lava-test-case boardbench-run --result fail
    ;;
  *)
    echo "boardbench exited with code $rc"
    lava-test-case boardbench-run --result fail
    ;;
esac
if [ ! -s "$doc" ]; then
  echo "no result document was written"
  lava-test-case boardbench-document --result fail
  exit 0
fi

if "$BOARDBENCH" export lava "$doc" >"$cases"; then
  # Each line is one `lava-test-case NAME --result R [--measurement V --units U]` call.
  sh "$cases"
else
  lava-test-case boardbench-export --result fail
fi

if [ -n "$RESULTS_URL" ]; then
  answer="$OUTPUT/upload-answer.json"
  code=$(curl -sS -o "$answer" -w '%{http_code}' --max-time 120 \
    -H "Authorization: Bearer $RESULTS_TOKEN" -H 'Content-Type: application/json' \
    --data-binary "@$doc" "${RESULTS_URL%/}/api/v1/runs") || code=000
  id=$(sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$answer" 2>/dev/null | head -n 1)
  if { [ "$code" = 201 ] || [ "$code" = 200 ]; } && [ -n "$id" ]; then
    lava-test-reference boardbench-document --result pass \
      --reference "${RESULTS_URL%/}/api/v1/runs/$id"
  else
    echo "upload to $RESULTS_URL failed: HTTP $code $(cat "$answer" 2>/dev/null)"
    lava-test-case boardbench-upload --result fail
  fi
fi

if [ "$DOCUMENT_IN_LOG" != false ]; then
  echo "BOARDBENCH-DOCUMENT-BEGIN gzip+base64 $(basename "$doc")"
  gzip -c "$doc" | base64
  echo "BOARDBENCH-DOCUMENT-END"
fi
exit 0
