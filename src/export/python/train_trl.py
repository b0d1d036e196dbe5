"""GRPO (or SFT) on an exported Coevo dataset with TRL, on one GPU or many.

Copied by `npm run export -- --format trl` from src/export/python/train_trl.py.
Run from the export folder, e.g. (launch_trl.sh has the full commands):

  accelerate launch --config_file accelerate_zero3.yaml train_trl.py \
      --task grounder-grpo --data datasets/d0/grounder_grpo.jsonl \
      --model Qwen/Qwen2.5-VL-3B-Instruct --output_dir out/grounder-grpo

Follows https://huggingface.co/docs/trl/grpo_trainer ("Using a custom reward
function", "Vision-Language Model (VLM) Training": a conversational `prompt`
and an `images` column of PIL images) and
https://huggingface.co/docs/trl/dataset_formats#vision-datasets. The JSONL
holds image paths; they are cast to datasets.Image so the trainer gets PIL
images. Not run by Coevo's tests (no GPU cluster is reachable there).
"""

import argparse
import os

import rewards


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--task", required=True, choices=["grounder-grpo", "planner-grpo", "grounder-sft", "planner-sft"])
    p.add_argument("--data", required=True, help="a .jsonl file of the export, e.g. datasets/d0/grounder_grpo.jsonl")
    p.add_argument("--model", default="Qwen/Qwen2.5-VL-3B-Instruct")
    p.add_argument("--output_dir", required=True)
    p.add_argument("--num_generations", type=int, default=7, help="G, Co-EPG used 7")
    p.add_argument("--temperature", type=float, default=0.9)
    p.add_argument("--beta", type=float, default=None, help="KL weight; default 0.01 planner (Co-EPG), 0.004 grounder (SE-GUI)")
    p.add_argument("--learning_rate", type=float, default=1e-6)
    p.add_argument("--per_device_train_batch_size", type=int, default=7)
    p.add_argument("--use_vllm", action="store_true")
    p.add_argument("--vllm_mode", default="colocate", choices=["colocate", "server"])
    a = p.parse_args()

    from datasets import Image, Sequence, load_dataset

    here = os.path.dirname(os.path.abspath(a.data))
    root = os.path.dirname(os.path.dirname(here))  # the export folder: images/ lives there
    ds = load_dataset("json", data_files=a.data, split="train")
    ds = ds.map(lambda r: {"images": [os.path.join(root, i) for i in r["images"]]})
    ds = ds.cast_column("images", Sequence(Image()))

    if a.task.endswith("sft"):
        from trl import SFTConfig, SFTTrainer

        args = SFTConfig(output_dir=a.output_dir, learning_rate=a.learning_rate, bf16=True, gradient_checkpointing=True)
        SFTTrainer(model=a.model, args=args, train_dataset=ds).train()
        return

    from trl import GRPOConfig, GRPOTrainer

    grounder = a.task == "grounder-grpo"
    beta = a.beta if a.beta is not None else (0.004 if grounder else 0.01)
    if grounder:
        # SE-GUI: format : point = 1 : 2.
        funcs, weights = [rewards.grounding_format_reward, rewards.grounding_point_reward], [1.0, 2.0]
    else:
        # Set the pool before training, e.g. COEVO_GROUNDER_POOL=my_pool:make_pool (see rewards.PoolGrounder).
        rewards.grounder_pool()
        funcs, weights = [rewards.plan_reward], [1.0]
    args = GRPOConfig(
        output_dir=a.output_dir,
        learning_rate=a.learning_rate,
        beta=beta,
        epsilon=0.2,
        num_generations=a.num_generations,
        temperature=a.temperature,
        per_device_train_batch_size=a.per_device_train_batch_size,
        reward_weights=weights,
        use_vllm=a.use_vllm,
        vllm_mode=a.vllm_mode,
        bf16=True,
        gradient_checkpointing=True,
        log_completions=True,
    )
    GRPOTrainer(model=a.model, args=args, reward_funcs=funcs, train_dataset=ds).train()


if __name__ == "__main__":
    main()
