# Sourced by scripts/test: run a command with a time limit and, when it overruns, end exactly
# what it started. A test run under qemu-user can hang (qemu 7.2 deadlocks in fork() now and
# then); ending it by name (pkill -f qemu…) would also kill every other qemu on the machine.
#
# The command runs in a session of its own (setsid). The session, not only the process group, is
# what gets ended: the tools' Runner and review's command start children in process groups of
# their own, which stay in the session. In a non-interactive bash a background job is not a group
# leader, so setsid(1) calls setsid() itself instead of forking: $! is the session id.

# run_bounded_session LIMIT CMD… — LIMIT as timeout(1) takes it (25m, 3s). Returns CMD's status,
# or 124 when it overran (then every process of its session got SIGTERM, and SIGKILL 5 s later).
# Whatever the command leaves behind in its session is killed when it ends.
run_bounded_session() {
  local limit=$1
  shift
  setsid "$@" &
  local sid=$! rc=0
  if timeout "$limit" tail --pid="$sid" -f /dev/null; then
    wait "$sid" || rc=$?
  else
    rc=124
    pkill -TERM -s "$sid" 2>/dev/null || true
    timeout 5 tail --pid="$sid" -f /dev/null || true
  fi
  pkill -KILL -s "$sid" 2>/dev/null || true
  wait "$sid" 2>/dev/null || true
  return $rc
}
