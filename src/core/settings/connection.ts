// The settings panel's connection check: what the token can see of a company, in one sentence.

import type { ApiClient } from '../api/client';
import { ApiError, userSentence } from '../errors';
import type { Metric } from '../api/types';
import { countOf } from '../../shared/words';
import { requireUuid } from '../validate/uuid';

export type ConnectionReport = {
  ok: boolean;
  /** One sentence: what the token can see, or the exact problem and what to do. */
  message: string;
  metricCount?: number;
};

/**
 * The metric listing decides whether the connection works (its failure is the report, not an exception);
 * the portfolio listing only says whether the company is a fund: a 403 there is an answer, not a failure.
 */
export function checkConnection(api: Pick<ApiClient, 'metrics' | 'portfolio'>, companyId: string): ConnectionReport {
  const id = requireUuid(companyId, 'The company id');
  let metrics: Metric[];
  try {
    metrics = api.metrics.list(id);
  } catch (error) {
    return { ok: false, message: userSentence(error) };
  }
  let portfolio: string;
  try {
    portfolio = `it is a fund with ${countOf(api.portfolio.listProfiles(id).length, 'portfolio company', 'portfolio companies')}`;
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'forbidden')) throw error;
    portfolio = 'it has no portfolio data (not a fund, or not visible to this token)';
  }
  return {
    ok: true,
    message: `Connected. This token sees ${countOf(metrics.length, 'metric')} of company ${id}, and ${portfolio}.`,
    metricCount: metrics.length,
  };
}
