#!/usr/bin/env bash
# On a machine with a CUDA GPU and the project set up (`make setup`, with a CUDA build of torch):
# correctness first (every family's worker on the GPU in bfloat16 against the whole model in float32),
# then timings of the middle layers. Everything lands in gpu-check/ (or $1); nothing is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-gpu-check}"
mkdir -p "$out"
py=.venv/bin/python
[ -x "$py" ] || py=python3
"$py" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 'PyTorch sees no CUDA GPU here')"
"$py" -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0))" | tee "$out/device.txt"

echo "== correctness: the worker on CUDA in bfloat16, every family"
"$py" -m pytest -q -m cuda tests/integration/test_cuda_worker.py 2>&1 | tee "$out/correctness.txt"

echo "== the middle layers per round trip: 1, 16 and 64 rows after 1,024 positions"
for shape in llama-3.2-1b llama-3.1-8b mistral-nemo-12b; do
  "$py" -m app.bench.middle_timing --shape "$shape" --device cuda --dtype bfloat16 | tee -a "$out/middle.jsonl"
done
# 70B's middle is ~130 GB in bfloat16: time 8 of its layers and scale by layer count.
"$py" -m app.bench.middle_timing --shape llama-3.1-70b --layers 8 --device cuda --dtype bfloat16 \
  | tee -a "$out/middle.jsonl"

echo "== concurrent sessions against one GPU worker: 1, 8 and 32"
model="$out/llama-3.2-1b-random"
"$py" -c "
from pathlib import Path
from app.bench.checkpoints import published_config, write_random_checkpoint
from app.engine.source.specs import resolve_model
write_random_checkpoint(published_config('llama-3.2-1b'), Path('$model'), tokenizer_from=resolve_model().folder)"
"$py" -m app bench --model "$model" --split 2 --load 1,8,32 --device cuda --dtype bfloat16 \
  --json "$out/load.json" | tee "$out/load.txt"
echo "done: $out"
