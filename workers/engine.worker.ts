/// <reference lib="webworker" />
/** The engine worker's entry point: builds the engine and exposes it with comlink. */
import * as Comlink from 'comlink';
import type { EngineApi } from './api';
import { deviceFault, onDeviceLost, probeWebGpu, simulateDeviceLoss, useBackend } from './backend';
import { createEngine } from './engine';
import { realPaint, realScreenImages } from './paint';

const engine: EngineApi = createEngine({
  probeWebGpu, useBackend, deviceFault, onDeviceLost, simulateDeviceLoss, paint: realPaint, screenImages: realScreenImages,
});
Comlink.expose(engine);
