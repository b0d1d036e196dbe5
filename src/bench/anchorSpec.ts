/**
 * What the PyTorch anchor (bench/anchor/anchor.py) needs to mirror a
 * preset's models and the bench's steps: the configs, the constants they
 * are built on, the learning rates, and the parameter counts its mirrors
 * must equal. Built where the models are, so the Node command that runs the
 * anchor never loads tfjs.
 */
import { CANVAS_HEIGHT, CANVAS_WIDTH, CELL, GLYPH_STRIDE } from '../models/canvas';
import { grounderPreset, plannerPreset, presetSizes, type PresetName } from '../models/presets';
import { GRPO_EPSILON, PLANNER_BETA, SAMPLING_TEMPERATURE } from '../learn/grpo';
import { SPELL_LETTERS } from '../text/spelled';
import { SPECIAL, WORD_CHAR_CLASSES } from '../text/tokenizer';
import { COLOR_CLASSES, ICON_CLASSES, LETTER_CLASSES, ROLE_CLASSES } from '../world/cellLabels';
import { SCREEN_SIZE } from '../world/types';
import { BENCH_LR, BENCH_PLANNER_CLIP, POOL_BATCH } from './agentSteps';
import type { AnchorSpec, StepsWork } from './types';

export function anchorSpec(preset: PresetName, work?: Partial<StepsWork>): AnchorSpec {
  const sizes = presetSizes().find((s) => s.preset === preset);
  if (!sizes) throw new Error(`anchorSpec: no preset ${preset}`);
  return {
    grounder: grounderPreset(preset),
    planner: plannerPreset(preset),
    constants: {
      canvasWidth: CANVAS_WIDTH,
      canvasHeight: CANVAS_HEIGHT,
      cell: CELL,
      glyphStride: GLYPH_STRIDE,
      letterClasses: LETTER_CLASSES,
      wordCharClasses: WORD_CHAR_CLASSES,
      roleClasses: ROLE_CLASSES,
      iconClasses: ICON_CLASSES,
      colorClasses: COLOR_CLASSES,
      spellLetters: SPELL_LETTERS,
      screenWidth: SCREEN_SIZE.web.width,
      screenHeight: SCREEN_SIZE.web.height,
      pad: SPECIAL.pad,
      bos: SPECIAL.bos,
      eos: SPECIAL.eos,
      sep: SPECIAL.sep,
      temperature: SAMPLING_TEMPERATURE,
      beta: PLANNER_BETA,
      epsilon: GRPO_EPSILON,
      poolBatch: POOL_BATCH,
    },
    grounderLr: BENCH_LR.grounderSft,
    plannerSftLr: BENCH_LR.plannerSft,
    plannerGrpoLr: BENCH_LR.plannerGrpo,
    plannerClip: BENCH_PLANNER_CLIP,
    params: { grounder: sizes.grounder, planner: sizes.planner },
    ...(work ? { work } : {}),
  };
}
