#!/bin/bash
# Installs and starts a single-node Slurm (munge authentication, the controller and the node
# daemon on this machine). Run as root: `bash benches/results/nn-gen3/slurm/setup.sh`.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge
sed "s/NODE/$(hostname)/" "$here/slurm.conf" > /etc/slurm/slurm.conf
mkdir -p /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
chown slurm:slurm /var/spool/slurmctld /var/log/slurm
chown munge:munge /run/munge
pgrep -x munged > /dev/null || runuser -u munge -- /usr/sbin/munged
pgrep -x slurmctld > /dev/null || /usr/sbin/slurmctld
pgrep -x slurmd > /dev/null || /usr/sbin/slurmd
sleep 2
scontrol update nodename="$(hostname)" state=resume 2> /dev/null || true
sinfo
