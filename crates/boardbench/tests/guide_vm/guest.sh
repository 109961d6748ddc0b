#!/bin/sh
# Runs inside the VM of scripts/guide-vm (tests/guide_vm.rs): one full quick run of the guide's
# kcrypto, ipsec and audio sections, then three interrupted runs, each followed by a look for
# anything left behind. Results go to files in DIR (the shared results directory):
#   full.json, full.err, full.rc           the full run
#   NAME.json, NAME.err, NAME.check        an interrupted run; NAME.check holds key=value lines
#
#   guest.sh BOARDBENCH DIR
set -u
bb=$1
dir=$2

guide() {
  "$bb" guide --quick --no-idle-gate --no-store --no-tune "$@"
}

# Everything the sections could leave: xfrm states and policies (in any namespace), network
# namespaces, links other than lo, tools still running, files in the temporary directories.
leftovers() {
  out=$1
  {
    echo "xfrm_state=$(ip xfrm state | grep -c '^src')"
    echo "xfrm_policy=$(ip xfrm policy | grep -c '^src')"
    echo "netns=$(ip netns list | wc -l)"
    echo "links=$(ip -o link show | grep -vc ': lo:')"
    echo "tools=$(for t in iperf3 arecord aplay openssl; do pgrep -x "$t"; done | wc -l)"
    ls -A /tmp /var/tmp /dev/shm 2>/dev/null >"$dir/tmp.after"
    echo "tmp_new=$(diff "$dir/tmp.before" "$dir/tmp.after" | grep -c '^>')"
  } >>"$out"
}

# wait_for SECONDS CONDITION…: polls the condition every 0.1 s.
wait_for() {
  n=$(($1 * 10)); shift
  while [ "$n" -gt 0 ]; do
    "$@" && return 0
    sleep 0.1; n=$((n - 1))
  done
  return 1
}

esp_state_exists() {
  for ns in $(ip netns list | awk '{print $1}'); do
    ip -n "$ns" xfrm state 2>/dev/null | grep -q '^src' && return 0
  done
  return 1
}
tool_runs() { pgrep -x "$1" >/dev/null; }

# interrupt NAME SECTIONS SIGNAL GROUP CONDITION…: starts the guide in a process group of its
# own, waits until CONDITION holds (the section is mid-measurement), sends SIGNAL to the guide
# (GROUP=group: to the whole group, as a terminal's Ctrl-C does), waits for its end.
interrupt() {
  name=$1 sections=$2 sig=$3 group=$4; shift 4
  ls -A /tmp /var/tmp /dev/shm 2>/dev/null >"$dir/tmp.before"
  setsid "$bb" guide --quick --no-idle-gate --no-store --no-tune --sections "$sections" \
    -o "$dir/$name.json" 2>"$dir/$name.err" >/dev/null &
  pid=$!
  if wait_for 90 "$@"; then reached=1; else reached=0; fi
  # procps' kill: the shell's own cannot signal a process group.
  if [ "$group" = group ]; then /bin/kill -s "$sig" -- "-$pid"; else kill "-$sig" "$pid"; fi
  wait "$pid"
  rc=$?
  { echo "reached=$reached"; echo "rc=$rc"; } >"$dir/$name.check"
  sleep 0.5
  leftovers "$dir/$name.check"
}

start=$(date +%s)
guide --sections kcrypto,ipsec,audio -o "$dir/full.json" 2>"$dir/full.err" >/dev/null
echo $? >"$dir/full.rc"
echo "full run: $(($(date +%s) - start)) s"

t=$(date +%s)
interrupt ipsec-term ipsec TERM pid esp_state_exists
echo "ipsec SIGTERM: $(($(date +%s) - t)) s"
t=$(date +%s)
interrupt audio-int audio INT group tool_runs arecord
echo "audio Ctrl-C: $(($(date +%s) - t)) s"
t=$(date +%s)
interrupt kcrypto-term kcrypto TERM pid tool_runs openssl
echo "kcrypto SIGTERM: $(($(date +%s) - t)) s"
t=$(date +%s)
interrupt ipsec-int ipsec INT group esp_state_exists
echo "ipsec Ctrl-C: $(($(date +%s) - t)) s"
echo "guest total: $(($(date +%s) - start)) s"
