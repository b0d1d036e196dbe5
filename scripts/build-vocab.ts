/**
 * Regenerates src/text/vocab.json from the world (npx tsx scripts/build-vocab.ts).
 * Run it after changing apps, templates, writers or the grammar; the test
 * models-tokenizer fails while the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildVocabData } from '../src/text/vocabBuild';

const out = fileURLToPath(new URL('../src/text/vocab.json', import.meta.url));
const data = buildVocabData();
// One piece per line, so a change to the world shows as a readable diff.
const body = data.pieces.map((piece) => JSON.stringify(piece)).join(',\n');
writeFileSync(out, `{"version":${data.version},"minCount":${data.minCount},"pieces":[\n${body}\n]}\n`);
console.log(`wrote ${out}: ${data.pieces.length} pieces`);
