/**
 * The instruction half of a grounder batch, filled on the host one row at a
 * time: token ids, each token's word's letters, and the target's spelled
 * letters. One place, so every path that grounds (pretraining, SFT, GRPO,
 * the planner's reward pool, distillation, the page) encodes alike.
 */
import type { Tokenizer } from '../text/tokenizer';
import { SPELL_LETTERS, spellTarget } from '../text/spelled';
import type { GrounderConfig, GrounderInputs } from './grounder';
import * as tf from './tf';

export interface InstructionArrays {
  tokens: Int32Array; // [B, T]
  chars: Int32Array; // [B, T, L]
  spellLetters: Int32Array; // [B, SPELL_LETTERS]
  spellAfterSpace: Float32Array; // [B, SPELL_LETTERS]
}

export function instructionArrays(n: number, cfg: GrounderConfig): InstructionArrays {
  return {
    tokens: new Int32Array(n * cfg.maxTokens),
    chars: new Int32Array(n * cfg.maxTokens * cfg.charLength),
    spellLetters: new Int32Array(n * SPELL_LETTERS),
    spellAfterSpace: new Float32Array(n * SPELL_LETTERS),
  };
}

/** Row i ← one instruction. */
export function setInstruction(a: InstructionArrays, i: number, tok: Tokenizer, cfg: GrounderConfig, instruction: string): void {
  const t = cfg.maxTokens;
  const l = cfg.charLength;
  const enc = tok.encodeWithChars(instruction, t, l);
  a.tokens.set(enc.ids, i * t);
  a.chars.set(enc.chars, i * t * l);
  const s = spellTarget(instruction);
  a.spellLetters.set(s.letters, i * SPELL_LETTERS);
  a.spellAfterSpace.set(s.afterSpace, i * SPELL_LETTERS);
}

/** Arrays of n rows filled from instructions (a shorter list repeats its last). */
export function encodeInstructions(tok: Tokenizer, cfg: GrounderConfig, instructions: readonly string[], n = instructions.length): InstructionArrays {
  const a = instructionArrays(n, cfg);
  for (let i = 0; i < n; i++) setInstruction(a, i, tok, cfg, instructions[Math.min(i, instructions.length - 1)]);
  return a;
}

export function instructionTensors(a: InstructionArrays, cfg: GrounderConfig): Pick<GrounderInputs, 'tokens' | 'chars' | 'spell'> {
  const n = a.tokens.length / cfg.maxTokens;
  return {
    tokens: tf.tensor2d(a.tokens, [n, cfg.maxTokens], 'int32'),
    chars: tf.tensor3d(a.chars, [n, cfg.maxTokens, cfg.charLength], 'int32'),
    spell: {
      letters: tf.tensor2d(a.spellLetters, [n, SPELL_LETTERS], 'int32'),
      afterSpace: tf.tensor2d(a.spellAfterSpace, [n, SPELL_LETTERS], 'float32'),
    },
  };
}
