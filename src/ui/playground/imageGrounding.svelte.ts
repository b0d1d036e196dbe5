/** Grounding an instruction on a person's screenshot in the worker (groundImage), newest question wins. */
import { getEngine } from '../engine';
import { LatestAnswer } from '../latestAnswer.svelte';
import type { GroundImageAnswer, GroundImageRequest } from '../../../workers/api';

export class ImageGrounding extends LatestAnswer<GroundImageRequest, GroundImageAnswer> {
  constructor() {
    super((req) => getEngine().groundImage(req));
  }
}
