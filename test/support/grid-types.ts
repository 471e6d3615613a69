// What the workbench's grid page tells the browser tests: its view of the sheet (window.workbenchGrid.shape())
// and one stored cell as the grid's cells route sends it (workbench/grid.ts).

export interface GridShape {
  sheet: string;
  active: string;
  selection: string;
  maxRows: number;
  maxColumns: number;
  hiddenRows: number[];
  hiddenColumns: number[];
  pasteLimitBytes: number;
}

export interface GridCell {
  d: string;
  f?: string;
  error?: string;
  bg?: string;
  control?: { kind: string; checked?: boolean; values?: string[] };
}
