# A private one-host Slurm for tests (sourced; not a test itself): munged,
# slurmctld and slurmd from Debian's munge and slurm-wlm packages, configured
# in a temporary directory (no systemd, proctrack/linuxproc, task/none, no
# accounting), on free ports, so it runs beside anything else. The caller
# sets TMP. start_slurm exports SLURM_CONF for sbatch/squeue/scontrol and
# returns 77 (ctest's skip code) with the reason on stdout when this machine
# cannot run the daemons; stop_slurm stops exactly the daemons it started.
SLURM_DIR=
SLURM_PIDS=()

free_port() { # a TCP port nobody listens on
  local p
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % 30000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  echo 0
}

pid_of() { # a daemon's pid file, once it was written
  for _ in $(seq 50); do [[ -s $1 ]] && { cat "$1"; return; }; sleep 0.1; done
}

start_slurm() {
  local d=$TMP/slurm h c
  SLURM_DIR=$d
  for c in munged slurmctld slurmd sbatch; do
    command -v "$c" >/dev/null || { echo "SKIP: $c not installed (scripts/install-deps.sh installs slurm-wlm and munge)"; return 77; }
  done
  [[ $(id -u) -eq 0 ]] || { echo "SKIP: slurmd must run as root to start jobs"; return 77; }
  mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log"
  chmod 0700 "$d/munge"
  head -c 1024 /dev/urandom >"$d/munge/munge.key"
  chmod 0400 "$d/munge/munge.key"
  munged --force --key-file="$d/munge/munge.key" --socket="$d/munge/sock" \
    --pid-file="$d/munge/munged.pid" --seed-file="$d/munge/seed" --log-file="$d/log/munged.log" ||
    { echo "SKIP: munged does not start: $(tail -n 1 "$d/log/munged.log")"; return 77; }
  SLURM_PIDS+=("$(pid_of "$d/munge/munged.pid")")
  h=$(hostname -s)
  cat >"$d/slurm.conf" <<EOF
ClusterName=tlmgputest
SlurmctldHost=$h(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Small, so that a test's 4 points need two arrays (the sweep splits them).
MaxArraySize=3
NodeName=$h NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$d/slurm.conf
  slurmctld -i || { echo "SKIP: slurmctld does not start: $(tail -n 1 "$d/log/slurmctld.log")"; return 77; }
  SLURM_PIDS+=("$(pid_of "$d/slurmctld.pid")")
  slurmd || { echo "SKIP: slurmd does not start: $(tail -n 1 "$d/log/slurmd.log")"; return 77; }
  SLURM_PIDS+=("$(pid_of "$d/slurmd.pid")")
  for _ in $(seq 100); do # the node registers within a second or two
    [[ $(sinfo -h -o %t 2>/dev/null) == idle ]] && return 0
    sleep 0.2
  done
  echo "SKIP: the Slurm node never became idle: $(tail -n 1 "$d/log/slurmd.log")"
  return 77
}

stop_slurm() {
  local p
  for p in "${SLURM_PIDS[@]}"; do [[ -n $p ]] && kill "$p" 2>/dev/null; done
  for p in "${SLURM_PIDS[@]}"; do
    [[ -n $p ]] || continue
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  SLURM_PIDS=()
}
