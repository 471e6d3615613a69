// Who may reach what: tokens belong to users, users reach companies, portfolio endpoints need an investor company.

import { forbidden, unauthorized } from './errors';
import type { CompanyRecord, UserRecord } from './records';
import { byId, type Store } from './store';

/** The user behind an `Authorization: Bearer <token>` header; throws 401 otherwise. */
export function authenticate(store: Store, header: string | undefined): UserRecord {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const user = match?.[1] ? store.userByToken(match[1]) : undefined;
  if (!user) throw unauthorized();
  return user;
}

/** The token part of the header, used as the rate limiter's key; missing tokens share one bucket per address. */
export function rateLimitKey(header: string | undefined, address: string): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ? `token:${match[1]}` : `address:${address}`;
}

/** True when the user reaches the company. */
export function canAccess(user: UserRecord, companyId: string): boolean {
  return user.company_ids.includes(companyId);
}

/** The company, when it exists and the user reaches it; 403 otherwise (an unknown company looks the same as a hidden one). */
export function requireCompany(store: Store, user: UserRecord, companyId: string): CompanyRecord {
  const company = byId(store.state.companies, companyId);
  if (!company || !canAccess(user, companyId)) throw forbidden();
  return company;
}

/** Like requireCompany, and the company must be of the investor product (portfolio endpoints). */
export function requireInvestorCompany(store: Store, user: UserRecord, companyId: string): CompanyRecord {
  const company = requireCompany(store, user, companyId);
  if (company.kind !== 'investor') throw forbidden();
  return company;
}
