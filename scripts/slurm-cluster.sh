#!/usr/bin/env bash
# A real single-node Slurm cluster for the Slurm executor's tests: slurmctld and slurmd on this host, run as root, with their
# configuration, state, spool, logs and pid files all in one directory.
#
#   slurm-cluster.sh start DIR    start it, wait until a probe job has run; the last (and only)
#                                 line on stdout is `export SLURM_CONF=DIR/slurm.conf`, to eval
#   slurm-cluster.sh stop DIR     cancel its jobs, stop what start started; safe to repeat
#   slurm-cluster.sh status DIR   say what runs; exits 0 when slurmctld and slurmd both run, 3 not
#
# start refuses when a cluster from DIR (or any other slurmctld/slurmd) already runs, rather
# than reuse it: a test should own the cluster it stops. A failed start stops what it started.
# A DIR may be started again after stop. After a clean stop its saved state keeps job ids
# increasing, so output named by job id is not overwritten; after an unclean one (a daemon
# died) start begins with an empty queue, and job ids since slurmctld last saved its state may
# come again. Keep DIR short: slurmd puts Unix sockets under it, and their paths are limited to
# 107 bytes.
#
# munged is shared by the whole host (Slurm finds it at its default socket): start launches it
# only when none runs, and records that in DIR/munged.pid, so stop ends munged only if this
# DIR's start launched it.
#
# Needs root (slurmd runs the jobs as their submitter) and the packages that
# scripts/install-solvers.sh installs. Messages go to stderr. Timeouts, in seconds:
# SLURM_CLUSTER_START_TIMEOUT (until the probe job has run, default 30) and
# SLURM_CLUSTER_STOP_TIMEOUT (for the jobs to go, then for the daemons to exit before SIGKILL,
# default 20 each).
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|status DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
CMD=$1
case "$CMD" in start | stop | status) ;; *) usage ;; esac
[ -n "$2" ] || usage
# Absolute, so slurm.conf's paths and the exported SLURM_CONF do not depend on the caller's cwd.
D=$(realpath -m -- "$2")
CONF=$D/slurm.conf
# For this script's own sinfo/squeue/scancel.
export SLURM_CONF=$CONF
# Slurm names a node by the short host name: slurmd looks itself up in slurm.conf by it.
NODE=$(hostname -s)
START_TIMEOUT=${SLURM_CLUSTER_START_TIMEOUT:-30}
STOP_TIMEOUT=${SLURM_CLUSTER_STOP_TIMEOUT:-20}

say() { echo "slurm-cluster: $*" >&2; }
die() {
  say "$*"
  exit 1
}

# running NAME PID: whether PID runs and is NAME. The name check keeps a stale pid file, whose
# pid the kernel may have handed to another process, from making us report or kill the wrong
# process; a zombie (a daemon that died and that init has not reaped yet) does not count.
running() {
  [ "$(cat "/proc/$2/comm" 2>/dev/null)" = "$1" ] &&
    ! grep -q '^State:[[:space:]]*Z' "/proc/$2/status" 2>/dev/null
}

# live_pids NAME: the processes named NAME that run (pgrep lists zombies too).
live_pids() {
  local p
  for p in $(pgrep -x "$1" || true); do
    ! running "$1" "$p" || echo "$p"
  done
}

# pid_of NAME PIDFILE: print the pid in PIDFILE if it runs and is NAME.
pid_of() {
  local pid
  [ -s "$2" ] || return 1
  pid=$(tr -dc 0-9 <"$2")
  [ -n "$pid" ] && running "$1" "$pid" || return 1
  echo "$pid"
}

# The step daemons (slurmstepd) of DIR's jobs. They outlive a killed slurmd, so stop looks for
# them too; each one holds DIR/slurmd.log open (it logs there), which tells ours from another
# cluster's.
our_stepds() {
  local p f
  for p in $(live_pids slurmstepd); do
    for f in /proc/"$p"/fd/*; do
      if [ "$(readlink "$f" 2>/dev/null)" = "$D/slurmd.log" ]; then
        echo "$p"
        break
      fi
    done
  done
  return 0
}

# descendants PID: its children, theirs, and so on.
descendants() {
  local c
  for c in $(pgrep -P "$1" || true); do
    echo "$c"
    descendants "$c"
  done
}

# terminate NAME:PID...: SIGTERM to each, wait up to STOP_TIMEOUT for all to exit (together, as
# each may take a second or two), then SIGKILL the rest and fail.
terminate() {
  local np end=$((SECONDS + STOP_TIMEOUT)) left
  for np in "$@"; do kill -TERM "${np#*:}" 2>/dev/null || true; done
  while :; do
    left=()
    for np in "$@"; do
      ! running "${np%%:*}" "${np#*:}" || left+=("$np")
    done
    [ ${#left[@]} -gt 0 ] || return 0
    if [ "$SECONDS" -ge "$end" ]; then
      say "${left[*]} ignored SIGTERM for ${STOP_TIMEOUT}s; killing them"
      for np in "${left[@]}"; do kill -KILL "${np#*:}" 2>/dev/null || true; done
      sleep 0.2
      return 1
    fi
    sleep 0.1
  done
}

logs_tail() {
  local f
  for f in "$D/slurmctld.log" "$D/slurmd.log" /var/log/munge/munged.log; do
    [ -s "$f" ] || continue
    echo "---- last lines of $f" >&2
    tail -n 20 "$f" >&2
  done
}

# munge authenticates every Slurm message: a key owned by the munge user, and munged.
start_munge() {
  mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
  # The munge package creates a key on install; a bare machine may not have one.
  [ -s /etc/munge/munge.key ] || mungekey -c >/dev/null
  # munged refuses to run unless its key and directories belong to it and others cannot write
  # them (or, for the key, read it); the socket directory must stay reachable by clients.
  chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
  chmod 700 /etc/munge /var/log/munge
  chmod 400 /etc/munge/munge.key
  chmod 755 /run/munge
  chmod 711 /var/lib/munge
  local pid end
  if pid=$(pid_of munged "$D/munged.pid"); then
    # Left by an earlier start from DIR whose Slurm daemons died: still ours to stop.
    say "munged (pid $pid) from an earlier start from $D still runs; using it"
  elif pid=$(live_pids munged) && [ -n "$pid" ]; then
    rm -f "$D/munged.pid"
    say "munged already runs (pid ${pid//$'\n'/ }); using it, stop will leave it"
  else
    runuser -u munge -- munged || die "munged failed to start (see /var/log/munge/munged.log)"
    # munged writes its pid file as it detaches; give it a moment.
    end=$((SECONDS + 5))
    until pid=$(pid_of munged /run/munge/munged.pid); do
      [ "$SECONDS" -lt "$end" ] || die "munged started but /run/munge/munged.pid names no munged"
      sleep 0.1
    done
    echo "$pid" >"$D/munged.pid"
  fi
  munge -n | unmunge >/dev/null ||
    die "munge cannot encode and decode a credential (munge -n | unmunge)"
}

write_conf() {
  local cpus mem_mb
  cpus=$(nproc)
  # slurmd drains a node whose RealMemory exceeds what it detects itself, so leave it a margin.
  mem_mb=$(awk '/^MemTotal:/ { m = int($2 / 1024); print (m > 2048 ? m - 1024 : int(m * 0.9)) }' \
    /proc/meminfo)
  cat >"$CONF" <<CONF
# Written by scripts/slurm-cluster.sh; rewritten by each start.
ClusterName=tilekit
# The explicit addresses spare both daemons from resolving the host name.
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
# No cgroups: these machines do not delegate them. linuxproc tracks a job by its process tree.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
# No accounting storage (so no sacct): squeue and scontrol show job until MinJobAge runs out.
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
# Schedule queued work (the next array tasks when a CPU frees up) at once rather than up to 3 s
# later: a trivial 4-task array on 2 CPUs ends in ~1.7 s instead of ~4.7 s.
SchedulerParameters=batch_sched_delay=0
# Finished jobs stay visible to squeue/scontrol for this many seconds (Slurm's default).
MinJobAge=300
# Cancelled or timed-out jobs get SIGKILL this long after SIGTERM (default 30), bounding stop.
KillWait=5
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A node left DOWN in the saved state comes back when its slurmd registers.
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=main Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
}

# start's EXIT trap: on failure, the logs and a stop.
# shellcheck disable=SC2317 # only called by the trap
start_failed() {
  local rc=$?
  [ "$rc" -ne 0 ] || return 0
  logs_tail
  say "start failed; stopping what it started"
  stop || true
}

start() {
  [ "$(id -u)" -eq 0 ] || die "must run as root (slurmd runs jobs as their submitter)"
  local b
  for b in slurmctld slurmd sbatch sinfo squeue scancel munged munge unmunge mungekey; do
    command -v "$b" >/dev/null || die "$b is missing; run scripts/install-solvers.sh"
  done
  if pid_of slurmctld "$D/slurmctld.pid" >/dev/null || pid_of slurmd "$D/slurmd.pid" >/dev/null; then
    die "a cluster from $D already runs; stop it first (slurm-cluster.sh stop $D)"
  fi
  # Another cluster's daemons would hold the ports (6817, 6818), and one host runs one slurmd.
  local others
  others=$(live_pids slurmctld; live_pids slurmd)
  if [ -n "$others" ]; then
    die "other Slurm daemons run here (pids ${others//$'\n'/ }); stop them first"
  fi
  mkdir -p "$D/state" "$D/spool"
  # On failure from here on, stop what was started, so a failed start leaves no daemon behind.
  trap start_failed EXIT
  start_munge
  write_conf
  # A cluster that stopped uncleanly (a daemon killed, jobs not ended) leaves jobs that its saved
  # state calls running, which keep the node allocated for over a minute: start such a DIR with an
  # empty queue (-c). After a clean stop, the saved state is kept.
  local clear=-c
  if [ -e "$D/stopped-cleanly" ]; then clear=; else
    [ ! -e "$D/state/job_state" ] || say "$D did not stop cleanly; starting with an empty queue"
  fi
  rm -f "$D/stopped-cleanly"
  # Both daemonize; -f because the configuration is not in /etc/slurm.
  slurmctld $clear -f "$CONF" || die "slurmctld failed to start"
  slurmd -f "$CONF" || die "slurmd failed to start"
  local state end=$((SECONDS + START_TIMEOUT)) t0=$SECONDS
  while :; do
    state=$(sinfo -h -N -n "$NODE" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    # A daemon that dies after detaching (a port in use, a bad path) leaves its pid file behind.
    if [ $((SECONDS - t0)) -ge 2 ]; then
      pid_of slurmctld "$D/slurmctld.pid" >/dev/null || die "slurmctld is not running"
      pid_of slurmd "$D/slurmd.pid" >/dev/null || die "slurmd is not running"
    fi
    [ "$SECONDS" -lt "$end" ] ||
      die "node $NODE is not idle after ${START_TIMEOUT}s (sinfo says: ${state:-nothing})"
    sleep 0.2
  done
  # An idle node does not prove that jobs run (munge credentials, the spool, slurmstepd): run
  # one. It also takes the first job's start-up delay (~2 s) out of the caller's first job.
  local probe
  probe=$(sbatch --parsable --job-name=slurm-cluster-probe --output=/dev/null --wrap true) ||
    die "sbatch refused a probe job"
  probe=${probe%%;*}
  while :; do
    state=$(squeue -h -j "$probe" -t all -o %T 2>/dev/null || true)
    case "$state" in
      COMPLETED) break ;;
      "" | PENDING | CONFIGURING | RUNNING | COMPLETING) ;;
      *) die "the probe job $probe ended $state" \
        "($(scontrol show job "$probe" 2>&1 | grep -o 'Reason=[^ ]*'))" ;;
    esac
    [ "$SECONDS" -lt "$end" ] ||
      die "the probe job $probe has not run within ${START_TIMEOUT}s (state: ${state:-unknown})"
    sleep 0.1
  done
  trap - EXIT
  say "node $NODE idle in partition main ($(nproc) CPUs); logs in $D"
  printf 'export SLURM_CONF=%q\n' "$CONF"
}

stop() {
  local ctld slurmd munged stepds p end clean=0
  ctld=$(pid_of slurmctld "$D/slurmctld.pid") || ctld=
  slurmd=$(pid_of slurmd "$D/slurmd.pid") || slurmd=
  munged=$(pid_of munged "$D/munged.pid") || munged=
  stepds=$(our_stepds)
  if [ -z "$ctld$slurmd$munged$stepds" ]; then
    rm -f "$D/munged.pid"
    say "nothing from $D runs"
    return 0
  fi
  # Cancel the jobs while slurmd still runs: it ends their processes (SIGTERM, KillWait, SIGKILL)
  # and reports them, where killing it first would orphan them.
  if [ -n "$ctld" ] && [ -n "$slurmd" ]; then
    clean=1
    end=$((SECONDS + STOP_TIMEOUT))
    # squeue lists the jobs that have not ended; again and again, in case one was just submitted.
    while [ -n "$(squeue -h -o %i 2>/dev/null || true)" ] || [ -n "$(our_stepds)" ]; do
      # Only slurmd can end them.
      if ! running slurmd "$slurmd"; then
        clean=0
        break
      fi
      scancel --partition=main 2>/dev/null || true
      if [ "$SECONDS" -ge "$end" ]; then
        clean=0
        say "jobs still there after ${STOP_TIMEOUT}s; killing the daemons anyway"
        break
      fi
      sleep 0.2
    done
  fi
  local daemons=()
  [ -z "$slurmd" ] || daemons+=("slurmd:$slurmd")
  [ -z "$ctld" ] || daemons+=("slurmctld:$ctld")
  [ ${#daemons[@]} -eq 0 ] || terminate "${daemons[@]}" || clean=0
  # Whatever jobs outlived slurmd (it was dead already, or it timed out): each step daemon and
  # the job's processes under it, which SIGKILL to the step daemon alone would leave running.
  for p in $(our_stepds); do
    # shellcheck disable=SC2046 # one pid a word
    kill -KILL "$p" $(descendants "$p") 2>/dev/null || true
  done
  # Last: the Slurm daemons authenticate their shutdown messages with it.
  [ -z "$munged" ] || terminate "munged:$munged"
  rm -f "$D/munged.pid"
  # Tells the next start from DIR that the saved state holds no job that still seems to run.
  [ "$clean" = 0 ] || : >"$D/stopped-cleanly"
  say "stopped${slurmd:+ slurmd ($slurmd)}${ctld:+ slurmctld ($ctld)}${munged:+ munged ($munged)}"
}

status() {
  local pid rc=0 m
  if pid=$(pid_of slurmctld "$D/slurmctld.pid"); then echo "slurmctld: running (pid $pid)"; else
    echo "slurmctld: not running"
    rc=3
  fi
  if pid=$(pid_of slurmd "$D/slurmd.pid"); then echo "slurmd: running (pid $pid)"; else
    echo "slurmd: not running"
    rc=3
  fi
  if pid=$(pid_of munged "$D/munged.pid"); then
    echo "munged: running (pid $pid, started by this DIR's start)"
  elif m=$(live_pids munged) && [ -n "$m" ]; then
    echo "munged: running (pid ${m//$'\n'/ }, not started from $D; stop leaves it)"
  else
    echo "munged: not running"
  fi
  if [ "$rc" = 0 ]; then
    echo "SLURM_CONF=$CONF"
    sinfo -N || true
    squeue || true
  fi
  return "$rc"
}

"$CMD"
