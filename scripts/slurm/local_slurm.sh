#!/usr/bin/env bash
# A private single-node Slurm on this machine, for trying the scripts here
# and for tests/slurm_test.sh: munged, slurmctld and slurmd (Debian 12:
# apt-get install slurmctld slurmd slurm-client munge, or scripts/setup.sh
# --slurm) with their own key, configuration, state, logs and free ports in
# DIR; nothing outside DIR is touched and the system's Slurm, if any, is not
# used.  The daemons run as root (SlurmUser=root), so run this as root.
#
#   scripts/slurm/local_slurm.sh start DIR    then: export SLURM_CONF=DIR/slurm.conf
#   scripts/slurm/local_slurm.sh stop DIR
#
# Jobs inherit this script's nice value (start it with nice -n 19 on a
# shared machine).  No cgroups (proctrack/linuxproc, task/none): memory and
# CPU limits are not enforced, as on a plain workstation.
set -euo pipefail
[ $# = 2 ] || { echo "usage: local_slurm.sh start|stop DIR" >&2; exit 2; }
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
case "$action" in
  start)
    for tool in munged mungekey slurmctld slurmd sinfo; do
      command -v "$tool" >/dev/null || { echo "local_slurm.sh: $tool is not installed (scripts/setup.sh --slurm)" >&2; exit 2; }
    done
    [ "$(id -u)" = 0 ] || { echo "local_slurm.sh: run as root (the daemons run as root)" >&2; exit 2; }
    chmod 755 "$dir"
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
    chmod 700 "$dir/munge"
    [ -f "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key"
    # --force: a parent of the socket directory may be world-writable (a temporary directory).
    munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
      --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munge.seed"
    free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
    host=$(hostname -s)
    cat >"$dir/slurm.conf" <<CONF
ClusterName=mancalalocal
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF"
    for _ in $(seq 60); do
      [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && { echo "export SLURM_CONF=$SLURM_CONF"; exit 0; }
      sleep 0.5
    done
    echo "local_slurm.sh: the node did not come up (logs in $dir)" >&2
    exit 1 ;;
  stop)
    for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
      if [ -s "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
    done
    for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
      [ -s "$pidfile" ] || continue
      pid=$(cat "$pidfile")
      for _ in $(seq 40); do  # until it is gone (or a zombie nobody reaps)
        state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)
        [ -n "$state" ] && [ "$state" != Z ] || break
        sleep 0.25
      done
    done ;;
  *) echo "usage: local_slurm.sh start|stop DIR" >&2; exit 2 ;;
esac
