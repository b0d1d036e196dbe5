/**
 * The launch examples an export carries: shell scripts with the commands of
 * each trainer for a multi-GPU run, pointed at this export's own datasets.
 * Not run here (no GPU cluster is reachable from Coevo's machines); the
 * flags are the ones the trainers' documentation gives, cited per script.
 */
import type { TrainerFormat } from './types';

export interface LaunchTargets {
  /** e.g. datasets/d3/grounder_grpo.jsonl: the last curated data set. */
  grounderGrpo: string | null;
  plannerGrpo: string | null;
}

export function launchScript(format: TrainerFormat, t: LaunchTargets): string {
  return format === 'trl' ? trlScript(t) : swiftScript(t);
}

function trlScript(t: LaunchTargets): string {
  const lines = [
    '#!/usr/bin/env bash',
    '# TRL GRPOTrainer with accelerate + DeepSpeed ZeRO-3 on 8 GPUs, vLLM generation colocated',
    '# (https://huggingface.co/docs/trl/grpo_trainer, "Vision-Language Model (VLM) Training").',
    '# Run from this folder: pip install "trl[vllm]" deepspeed pillow; then bash launch_trl.sh',
    'set -euo pipefail',
    'cd "$(dirname "$0")"',
    'MODEL=${MODEL:-Qwen/Qwen2.5-VL-3B-Instruct}',
  ];
  if (t.grounderGrpo) {
    lines.push(
      '',
      '# Grounder: dense point reward + format reward, weights 1 : 2 (SE-GUI), beta 0.004.',
      `accelerate launch --config_file accelerate_zero3.yaml train_trl.py --task grounder-grpo --data ${t.grounderGrpo} \\`,
      '  --model "$MODEL" --output_dir out/grounder-grpo --num_generations 7 --temperature 0.9 --use_vllm --vllm_mode colocate',
    );
  }
  if (t.plannerGrpo) {
    lines.push(
      '',
      '# Planner: grounding-based plan reward (Co-EPG C-DREM), beta 0.01. It needs a grounder pool:',
      '# COEVO_GROUNDER_POOL=module:function returning [rewards.PoolGrounder(name, prior, ground), ...].',
      'if [ -n "${COEVO_GROUNDER_POOL:-}" ]; then',
      `  accelerate launch --config_file accelerate_zero3.yaml train_trl.py --task planner-grpo --data ${t.plannerGrpo} \\`,
      '    --model "$MODEL" --output_dir out/planner-grpo --num_generations 7 --temperature 0.9 --use_vllm --vllm_mode colocate',
      'fi',
    );
  }
  return lines.join('\n') + '\n';
}

function swiftScript(t: LaunchTargets): string {
  const lines = [
    '#!/usr/bin/env bash',
    '# ms-swift GRPO on 8 GPUs (https://swift.readthedocs.io/en/latest/Instruction/GRPO/GetStarted/GRPO.html),',
    '# rewards as external ORM plugins (.../Instruction/GRPO/DeveloperGuide/reward_function.html).',
    '# Run from this folder (image paths are relative to it): pip install ms-swift vllm; then bash launch_swift.sh',
    'set -euo pipefail',
    'cd "$(dirname "$0")"',
    'MODEL=${MODEL:-Qwen/Qwen2.5-VL-3B-Instruct}',
  ];
  const common = [
    '  --train_type lora --torch_dtype bfloat16 \\',
    '  --use_vllm true --vllm_mode colocate --vllm_gpu_memory_utilization 0.5 --sleep_level 1 \\',
    '  --num_generations 7 --temperature 0.9 --per_device_train_batch_size 7 --learning_rate 1e-6 \\',
    '  --max_completion_length 128 --log_completions true',
  ];
  if (t.grounderGrpo) {
    lines.push(
      '',
      '# Grounder: format : point = 1 : 2 (SE-GUI), beta 0.004.',
      'NPROC_PER_NODE=8 swift rlhf --rlhf_type grpo --model "$MODEL" \\',
      `  --dataset ${t.grounderGrpo} --external_plugins rewards.py \\`,
      '  --reward_funcs coevo_format coevo_point --reward_weights 1 2 --beta 0.004 --output_dir out/grounder-grpo \\',
      ...common,
    );
  }
  if (t.plannerGrpo) {
    lines.push(
      '',
      '# Planner: C-DREM plan reward, beta 0.01; needs COEVO_GROUNDER_POOL=module:function (see rewards.py).',
      'if [ -n "${COEVO_GROUNDER_POOL:-}" ]; then',
      'NPROC_PER_NODE=8 swift rlhf --rlhf_type grpo --model "$MODEL" \\',
      `  --dataset ${t.plannerGrpo} --external_plugins rewards.py \\`,
      '  --reward_funcs coevo_plan --beta 0.01 --output_dir out/planner-grpo \\',
      ...common,
      'fi',
    );
  }
  return lines.join('\n') + '\n';
}
