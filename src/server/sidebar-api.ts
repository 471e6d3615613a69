// The functions the sidebar calls, typed by ServerApi; failures come back as data.

import { userMessage } from '../core/api/errors';
import { requireUuid } from '../core/validate/uuid';
import { readSettingsSummary, removeToken, saveBaseUrl, saveDefaultCompanyId, saveToken } from '../gas/user-settings';
import type { RpcResult, ServerApi } from '../shared/rpc';
import { createClientForExecution } from './api-factory';

function attempt<T>(body: () => T): RpcResult<T> {
  try {
    return { ok: true, value: body() };
  } catch (error) {
    return { ok: false, error: userMessage(error) };
  }
}

export const sidebarApi: ServerApi = {
  getSettings: () => attempt(readSettingsSummary),

  saveSettings: (update) => attempt(() => {
    if (update.removeToken) removeToken();
    else if (update.token !== undefined && update.token !== '') saveToken(update.token);
    if (update.baseUrl !== undefined) saveBaseUrl(update.baseUrl);
    if (update.defaultCompanyId !== undefined) {
      saveDefaultCompanyId(update.defaultCompanyId ? requireUuid(update.defaultCompanyId, 'The default company id') : null);
    }
    return readSettingsSummary();
  }),

  testConnection: (companyId) => attempt(() => {
    const id = requireUuid(companyId, 'The company id');
    try {
      const metrics = createClientForExecution({ maxTotalWaitMs: 30_000 }).metrics.list(id);
      return { ok: true, message: `Connected: this token sees ${metrics.length} metric${metrics.length === 1 ? '' : 's'} of company ${id}.`, metricCount: metrics.length };
    } catch (error) {
      return { ok: false, message: userMessage(error) };
    }
  }),
};
