#!/bin/bash
# exploration only: training log-likelihood against summed sweep seconds
cd /work/main; B=build-bench-openmp/apps/butterfly-lda
corpus=$1; K=$2; its=$3; shift 3
C="--docword ../shared/eval/$corpus/train.docword.txt.gz --vocab ../shared/eval/$corpus/train.vocab.txt --topics $K --alpha $(python3 -c "print(50/$K)") --beta 0.01"
for cfg in "$@"; do
  name=$(echo "$cfg" | tr ' ' '_' | tr -d '-'); [ -z "$name" ] && name=default
  OMP_NUM_THREADS=2 $B train $C $cfg --iterations $its --eval-every 2 --out /tmp/ex/m 2>&1 | grep '^iteration' | awk -v n="$corpus-$K-$name" '{t+=$3; if ($12!="-") printf "%s %s %.2f %s\n", n, $2, t, $12}' 
done
