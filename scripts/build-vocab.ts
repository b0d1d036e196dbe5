/**
 * Regenerates src/text/vocab.json from the world (npx tsx scripts/build-vocab.ts).
 * Run it after changing apps, templates, writers or the grammar; the test
 * models-tokenizer fails while the committed file lacks a piece the world
 * needs. A file that lacks none is left as it is: a new one would change the
 * token ids the shipped base models were trained with.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildVocabData, vocabCoverage, type VocabData } from '../src/text/vocabBuild';

const out = fileURLToPath(new URL('../src/text/vocab.json', import.meta.url));
const data = buildVocabData();
const committed = JSON.parse(readFileSync(out, 'utf8')) as VocabData;
const { missing, kept } = vocabCoverage(committed, data);
if (missing.length === 0 && committed.minCount === data.minCount) {
  console.log(`${out} already holds every piece the world needs (${kept.length} kept that it no longer needs); left as it is.`);
  process.exit(0);
}
console.log(`${missing.length} pieces missing (${missing.slice(0, 10).map((p) => JSON.stringify(p)).join(', ')}…): writing a new vocabulary. Token ids change, so retrain the base models (npm run pretrain) before shipping.`);
// One piece per line, so a change to the world shows as a readable diff.
const body = data.pieces.map((piece) => JSON.stringify(piece)).join(',\n');
writeFileSync(out, `{"version":${data.version},"minCount":${data.minCount},"pieces":[\n${body}\n]}\n`);
console.log(`wrote ${out}: ${data.pieces.length} pieces`);
