/**
 * One turn of the event loop. Training loops on WASM await only promises
 * that resolve as microtasks, so a worker running one would read no message
 * (pause, status, abort) until the loop ended; awaiting this between steps
 * lets those messages in.
 */
export function eventTurn(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
}
