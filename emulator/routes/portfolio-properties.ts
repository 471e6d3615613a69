// GET /portfolio_properties and GET /portfolio_property_options.

import { requireInvestorCompany } from '../access';
import { parameterInvalid } from '../errors';
import type { RegisterOperation } from '../operation';
import { DEFAULT_PAGE_SIZE, paginate } from '../pagination';
import type { EmulatorState, PropertyRecord } from '../records';
import { optionJson, propertyJson } from '../serializers';
import { byId } from '../store';

/** A company's properties as listed: custom ones first, then the auto-calculated investment properties. */
export function propertiesOf(state: EmulatorState, companyId: string): PropertyRecord[] {
  const own = state.portfolio_properties.filter((property) => property.company_id === companyId);
  return [...own.filter((property) => !property.auto_calculated), ...own.filter((property) => property.auto_calculated)];
}

/** Registers listPortfolioProperties and listPortfolioPropertyOptions. */
export function registerPropertyRoutes(register: RegisterOperation): void {
  register('listPortfolioProperties', ({ query, user }, { store }) => {
    requireInvestorCompany(store, user, query.company_id);
    const { items, meta } = paginate(propertiesOf(store.state, query.company_id), query.page ?? 1, DEFAULT_PAGE_SIZE);
    return { status: 200, body: { portfolio_properties: items.map(propertyJson), meta } };
  });

  register('listPortfolioPropertyOptions', ({ query, user }, { store }) => {
    const property = byId(store.state.portfolio_properties, query.portfolio_property_id);
    if (!property) throw parameterInvalid('portfolio_property_id', 'names no portfolio property');
    requireInvestorCompany(store, user, property.company_id);
    // Case-insensitive match of the whole label: a substring match would let "A" pick "Series A".
    const wanted = query.label?.toLowerCase();
    const options = store.state.portfolio_property_options.filter(
      (option) => option.portfolio_property_id === property.id && (wanted === undefined || option.label.toLowerCase() === wanted),
    );
    return { status: 200, body: { portfolio_property_options: options.map(optionJson) } };
  });
}
