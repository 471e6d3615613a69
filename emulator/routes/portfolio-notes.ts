// GET /portfolio_notes and GET /portfolio_notes/{id}.

import { requireInvestorCompany } from '../access';
import { parameterInvalid, recordMissing } from '../errors';
import type { RegisterOperation } from '../operation';
import { DEFAULT_PAGE_SIZE, paginate } from '../pagination';
import { portfolioNoteJson } from '../serializers';
import { byId } from '../store';

/** Registers listPortfolioNotes and getPortfolioNote. */
export function registerPortfolioNoteRoutes(register: RegisterOperation): void {
  register('listPortfolioNotes', ({ query, user }, { store }) => {
    const profile = byId(store.state.portfolio_company_profiles, query.portfolio_company_profile_id);
    if (!profile) throw parameterInvalid('portfolio_company_profile_id', 'names no portfolio company profile');
    requireInvestorCompany(store, user, profile.company_id);
    const notes = store.state.portfolio_notes
      .filter((note) => note.portfolio_company_profile_id === profile.id)
      .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id.localeCompare(b.id)));
    const { items, meta } = paginate(notes, query.page ?? 1, DEFAULT_PAGE_SIZE);
    return { status: 200, body: { portfolio_notes: items.map(portfolioNoteJson), meta } };
  });

  register('getPortfolioNote', ({ path, user }, { store }) => {
    const note = byId(store.state.portfolio_notes, path.id);
    const profile = note && byId(store.state.portfolio_company_profiles, note.portfolio_company_profile_id);
    if (!note || !profile) throw recordMissing(`Portfolio note not found: ${path.id}`);
    requireInvestorCompany(store, user, profile.company_id);
    return { status: 200, body: { portfolio_note: portfolioNoteJson(note) } };
  });
}
