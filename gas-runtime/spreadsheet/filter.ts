// A sheet's basic filter: which range it covers. Criteria and sorting are not modelled (loud if called).

import type { Range } from './range';

export class Filter {
  static readonly gasName = 'Filter';

  constructor(
    readonly _range: Range,
    readonly _onRemove: () => void,
  ) {}

  getRange(): Range {
    return this._range;
  }

  remove(): void {
    this._onRemove();
  }
}
