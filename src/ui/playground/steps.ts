/** How the Playground words an agent step: the action the world executed and where it happened. */
import type { Action } from '../../world/types';

export function describeAction(a: Action | null): string {
  if (!a) return 'nothing (no action could be made)';
  const at = 'x' in a && a.x !== undefined && a.y !== undefined ? ` at (${a.x.toFixed(0)}, ${a.y.toFixed(0)})` : '';
  switch (a.type) {
    case 'CLICK':
      return `click${at}`;
    case 'TYPE':
      return `type “${a.text}”${at}`;
    case 'SELECT':
      return `select “${a.option}”${at}`;
    case 'SCROLL':
      return `scroll ${a.direction}`;
    case 'BACK':
      return 'go back';
    case 'OPEN_APP':
      return `open the ${a.app} app`;
    case 'DONE':
      return 'say done';
  }
}
