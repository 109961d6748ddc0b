#!/bin/sh
# Runs inside the VM of scripts/guide-vm (tests/integration/guide_vm.rs): one full quick run of the guide's
# kcrypto, ipsec and audio sections, then three interrupted runs, each followed by a look for
# anything left behind. Results go to files in DIR (the shared results directory):
#   full.json, full.err, full.rc           the full run
#   NAME.json, NAME.err, NAME.check        an interrupted run; NAME.check holds key=value lines
#   link.json, link.err, link.rc, link-peer.err, link.check
#                                          the ipsec section over a veth "link" to `guide peer --ipsec`
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

# IPsec over a link: `guide peer --ipsec` in one namespace, the board's guide in another, a veth
# pair between them (10.216.0.1 the board, 10.216.0.2 the peer); 1 s per algorithm. Then the
# peer is stopped (SIGTERM) and both ends are looked at: the board's rows must be gone after the
# section, the peer's after its end, and no iperf3 may remain.
t=$(date +%s)
xcount() { ip -n "$1" xfrm "$2" 2>/dev/null | grep -c '^src'; }
ip netns add bbvmboard && ip netns add bbvmpeer &&
  ip link add bbl0 netns bbvmboard type veth peer name bbl0 netns bbvmpeer &&
  ip -n bbvmboard addr add 10.216.0.1/24 dev bbl0 && ip -n bbvmpeer addr add 10.216.0.2/24 dev bbl0
for ns in bbvmboard bbvmpeer; do ip -n "$ns" link set bbl0 up; ip -n "$ns" link set lo up; done
ip netns exec bbvmpeer "$bb" guide peer --ipsec 10.216.0.1 2>"$dir/link-peer.err" &
peer=$!
# The plain server (5201) starts once every row is installed.
peer_ready() { ss -N bbvmpeer -Hltn | grep -q ':5201 '; }
wait_for 20 peer_ready
{
  echo "peer_states=$(xcount bbvmpeer state)"
  echo "peer_policies=$(xcount bbvmpeer policy)"
} >"$dir/link.check"
ip netns exec bbvmboard "$bb" guide --quick --no-idle-gate --no-store --no-tune --sections ipsec \
  --peer 10.216.0.2 --ipsec-peer --net-time 1 -o "$dir/link.json" 2>"$dir/link.err" >/dev/null
echo $? >"$dir/link.rc"
{
  echo "board_xfrm_state=$(xcount bbvmboard state)"
  echo "board_xfrm_policy=$(xcount bbvmboard policy)"
} >>"$dir/link.check"
kill -TERM "$peer"
wait "$peer"
{
  echo "peer_rc=$?"
  echo "peer_xfrm_state=$(xcount bbvmpeer state)"
  echo "peer_xfrm_policy=$(xcount bbvmpeer policy)"
  echo "tools=$(pgrep -x iperf3 | wc -l)"
} >>"$dir/link.check"
ip netns del bbvmboard; ip netns del bbvmpeer
echo "ipsec over a link: $(($(date +%s) - t)) s"
echo "guest total: $(($(date +%s) - start)) s"
