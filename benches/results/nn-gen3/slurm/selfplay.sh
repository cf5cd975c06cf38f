#!/bin/bash
# The guide's self-play job array, as run for the third network generation: 4 shards of one
# 12,000-game run, one core each (this node has 2, so Slurm runs two at a time and queues the
# rest). Submitted from the data directory:
#   cd /work/data/gen3 && sbatch --export=ALL,YOLAH=/work/main/target/release/yolah \
#       /work/main/benches/results/nn-gen3/slurm/selfplay.sh
# then, once `squeue` is empty: yolah data merge gen3 shards/{1..4}
#SBATCH --job-name=yolah-selfplay
#SBATCH --array=1-4
#SBATCH --cpus-per-task=1
#SBATCH --output=logs/selfplay-%a.out
#SBATCH --error=logs/selfplay-%a.err
yolah=${YOLAH:-yolah}
"$yolah" selfplay minimax:nodes=20000,eval=nn --games 12000 --seed 3 --threads 1 \
    --shard "$SLURM_ARRAY_TASK_ID/4" --out "shards/$SLURM_ARRAY_TASK_ID" \
    || "$yolah" selfplay --resume --out "shards/$SLURM_ARRAY_TASK_ID"   # after a preemption
