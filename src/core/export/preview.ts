// What the sidebar shows before sending: what was read, which metric each column is, and what is wrong.

import { countItems, placeNamer } from './places';
import { formatCount } from '../../shared/words';
import { countOutcomes, reportItem } from './report';
import type { ExportItemState, ExportPreview, ExportState, RangeInput } from './types';

/** Overwrites listed old → new in a preview; past this, a count. */
const OVERWRITES_SHOWN = 50;

/**
 * A preview of a prepared export. With the range's display values, each sample item shows the cells as
 * the user sees them ("12%", "3/1/2024") beside what will be sent, so a misread column is caught early.
 */
export function previewExport(state: ExportState, displayValues?: RangeInput['displayValues'], limit = 10, problem: string | null = null): ExportPreview {
  const places = placeNamer(state.spec.layout, state.origin);
  const shown = (row: number, column: number): string | null => displayValues?.[row - 1]?.[column - 1] ?? null;
  const withShown = (item: ExportItemState) => ({
    ...reportItem(state, item, places),
    shownDate: shown(item.row, 1),
    shownValue: shown(item.row, item.column),
  });
  const { pending: toSend, skipped, failed, unchanged } = countOutcomes(state.items.map((item) => item.outcome));
  // A pending item's plan once its stored point was read; none while not compared yet.
  const planned = (plan: ExportItemState['planned']): number => state.items.filter((item) => item.outcome === 'pending' && item.planned === plan).length;
  // Typed data's same values are written again; they were compared when their server value is known.
  const sameAgain = state.items.filter((item) => item.outcome === 'pending' && item.planned === 'written' && item.previous !== undefined).length;
  const notCompared = planned(undefined) + (state.spec.onlyChanged ? 0 : planned('written') - sameAgain);
  // With the stored points read (always for "only what changed"; for typed data when the preview read them):
  // the words and counts of the export's report.
  // Typed data prepared without reads plans every item 'written' with no server value.
  const readFirst =
    state.spec.onlyChanged || state.items.some((item) => item.outcome === 'pending' && (item.planned !== 'written' || item.previous !== undefined));
  const compared = readFirst
    ? { unchanged: state.spec.onlyChanged ? unchanged : sameAgain, toCreate: planned('created'), toUpdate: planned('updated'), notCompared }
    : null;
  const counts = !compared
    ? [`${formatCount(toSend)} to send`]
    : state.spec.onlyChanged
      ? [
          `${formatCount(compared.unchanged)} unchanged`,
          `${formatCount(compared.toCreate)} to create`,
          `${formatCount(compared.toUpdate)} to overwrite a different value`,
          ...(compared.notCompared ? [`${formatCount(compared.notCompared)} not compared yet`] : []),
        ]
      : [
          // "Only what changed" is off: everything is sent, the unchanged values too.
          `${formatCount(toSend)} to send (${[
            `${formatCount(compared.toCreate)} to create`,
            `${formatCount(compared.toUpdate)} to overwrite a different value`,
            `${formatCount(compared.unchanged)} unchanged, sent again`,
            ...(compared.notCompared ? [`${formatCount(compared.notCompared)} not compared yet`] : []),
          ].join(', ')})`,
        ];
  counts.push(`${formatCount(skipped)} skipped`, `${formatCount(failed)} failed`);
  // Each overwrite with the value it replaces, so the person sees what the server loses before sending.
  const overwriting = state.items.filter((item) => item.outcome === 'pending' && item.planned === 'updated' && item.previous !== undefined);
  const overwrites = {
    total: overwriting.length,
    shown: overwriting.slice(0, OVERWRITES_SHOWN).map((item) => ({ cell: places.cell(item), old: item.previous ?? '(blank)', new: item.value ?? '' })),
  };
  return {
    layout: state.spec.layout,
    rowsRead: state.rowsRead,
    itemsRead: state.items.length,
    emptyRows: state.emptyRows,
    toSend,
    compared,
    overwrites,
    skipped,
    failed,
    problem,
    columns: state.columns.map((column) => {
      const metric = column.metric === null ? undefined : state.metrics[column.metric];
      return {
        letter: places.letter(column.column),
        header: column.header,
        metricId: metric?.id ?? null,
        metricName: metric?.name ?? null,
        frequency: metric?.frequency ?? null,
        error: column.error ?? null,
      };
    }),
    sample: state.items.slice(0, limit).map((item) => ({
      ...withShown(item),
      // Before sending, a pending item is one that will be sent: no "not sent" reason yet.
      ...(item.outcome === 'pending' ? { reason: null } : {}),
      ...(item.outcome === 'unchanged' ? { reason: 'already stored' } : {}),
    })),
    problems: state.items
      .filter((item) => item.outcome === 'skipped' || item.outcome === 'failed')
      .slice(0, limit)
      .map(withShown),
    summary: `${countItems(state.spec.layout, state.items.length)} read: ${state.items.length === 0 ? 'nothing to export' : counts.join(', ')}.`,
  };
}
