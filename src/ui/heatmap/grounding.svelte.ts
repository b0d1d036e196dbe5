/** Grounding one instruction on a world screen in the worker (groundScreen), newest question wins. */
import { getEngine } from '../engine';
import { LatestAnswer } from '../latestAnswer.svelte';
import type { GroundScreenAnswer, GroundScreenRequest } from '../../../workers/api';

export class Grounding extends LatestAnswer<GroundScreenRequest, GroundScreenAnswer> {
  constructor() {
    // Svelte state is a proxy, which cannot cross to the worker: send a plain copy.
    super((req) => getEngine().groundScreen(req), (req) => $state.snapshot(req) as GroundScreenRequest);
  }
}
