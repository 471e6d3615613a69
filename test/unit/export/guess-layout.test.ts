// "Use selection" guesses the layout: two columns are long unless the second header names one of the company's metrics.

import { guessLayout } from '../../../src/core/export/guess-layout';
import type { MetricRef } from '../../../src/core/export/types';
import { CHURN_A, METRICS, REVENUE } from './export-fixtures';

/** Counts how often the metrics were asked for: reading them costs a request. */
function loader(metrics: readonly MetricRef[] = METRICS): { load: () => readonly MetricRef[]; calls: () => number } {
  let calls = 0;
  return {
    load: () => {
      calls++;
      return metrics;
    },
    calls: () => calls,
  };
}

describe('guessing the layout of a selection', () => {
  it('reads two columns under a plain header as long, the values of the metric chosen in the sidebar', () => {
    const metrics = loader();
    expect(
      guessLayout(
        [
          ['Date', 'Value'],
          ['2024-01-01', 1],
        ],
        metrics.load,
      ),
    ).toEqual({ layout: 'long', hasHeaderRow: true });
    expect(metrics.calls()).toBe(1);
  });

  it("reads two columns as wide when the second header is the exact name of one of the company's metrics", () => {
    expect(
      guessLayout(
        [
          ['Month', 'Revenue'],
          ['2024-01-01', 1],
        ],
        loader().load,
      ),
    ).toEqual({ layout: 'wide', hasHeaderRow: true });
    // Stray spaces around a name are ignored, as the wide layout resolves it; a different case is another name.
    expect(
      guessLayout(
        [
          ['Month', '  Revenue '],
          ['2024-01-01', 1],
        ],
        loader().load,
      ).layout,
    ).toBe('wide');
    expect(
      guessLayout(
        [
          ['Month', 'revenue'],
          ['2024-01-01', 1],
        ],
        loader().load,
      ).layout,
    ).toBe('long');
  });

  it("reads two columns as wide when the second header is a metric's id, in any case", () => {
    expect(
      guessLayout(
        [
          ['Month', REVENUE.toUpperCase()],
          ['2024-01-01', 1],
        ],
        loader().load,
      ).layout,
    ).toBe('wide');
  });

  it('stays long when the header names an unknown id, or a name two metrics share (the wide layout could not resolve it)', () => {
    expect(
      guessLayout(
        [
          ['Month', '0b000000-0000-4000-8000-0000000000ff'],
          ['2024-01-01', 1],
        ],
        loader().load,
      ).layout,
    ).toBe('long');
    expect(
      guessLayout(
        [
          ['Month', 'Churn'],
          ['2024-01-01', 1],
        ],
        loader().load,
      ).layout,
    ).toBe('long');
    expect(
      guessLayout(
        [
          ['Month', CHURN_A],
          ['2024-01-01', 1],
        ],
        loader().load,
      ).layout,
    ).toBe('wide');
  });

  it('does not read the metrics when the shape decides: no header row, or more than two columns', () => {
    const metrics = loader();
    expect(
      guessLayout(
        [
          ['2024-01-01', 1],
          ['2024-02-01', 2],
        ],
        metrics.load,
      ),
    ).toEqual({ layout: 'long', hasHeaderRow: false });
    expect(
      guessLayout(
        [
          ['Date', 'Revenue', 'Churn'],
          ['2024-01-01', 1, 2],
        ],
        metrics.load,
      ),
    ).toEqual({ layout: 'wide', hasHeaderRow: true });
    expect(guessLayout([['2024-01-01']], metrics.load)).toEqual({ layout: 'long', hasHeaderRow: false });
    expect(metrics.calls()).toBe(0);
  });
});
