// The two sentence-makers over every error class: what a user reads, and the short reason a report shows.
// The expected words are those the add-in showed before the error model was one: word for word.

import * as classes from '../../src/core/errors/classes';
import {
  AddinError,
  ApiError,
  ConfigError,
  FetchRefusedError,
  FormulaAccessError,
  InputError,
  ListChangedError,
  LockUnavailableError,
  NetworkError,
  NotAmongAllowedError,
  OutOfTimeError,
  RateLimitedError,
  shortReason,
  userSentence,
  type ReasonSubject,
} from '../../src/core/errors';
import { explainPortfolioForbidden } from '../../src/core/formulas/list-formulas';
import { classifyFailure } from '../../src/core/jobs/classify-failure';

const api = (status: number, errors: classes.ErrorItem[] = [], path = '/metrics/m1/data_points', retryAfterSeconds?: number) =>
  new ApiError(status, errors, 'PUT', path, retryAfterSeconds);

const invalid = api(422, [{ type: 'attribute_invalid', field: 'value', message: 'must be a decimal number, e.g. 1250.5.' }]);
const twoInvalid = api(422, [
  { type: 'attribute_invalid', field: 'portfolio_property_option_id', message: 'is not an option of this property.' },
  { type: 'attribute_invalid', message: 'Name has already been taken.' },
]);
const paramMissing = api(400, [{ type: 'parameter_invalid', field: 'metric_id', message: 'is not valid' }]);
const paramOther = api(400, [{ type: 'parameter_invalid', field: 'start_date', message: 'must be a date.' }]);
const notFound = api(404, [{ type: 'record_missing', message: 'Metric not found.' }]);
const forbidden = api(403, [{ type: 'forbidden' }], '/portfolio_property_values');
const unauthorized = api(401);
const limited = api(429, [], '/contacts', 30);
const serverError = api(503);
const unreadable = new ApiError(200, [{ type: 'unexpected_response', message: 'the response was not JSON' }], 'GET', '/contacts?page=2');
const network = new NetworkError('Address unavailable: https://api.test/v1/metrics', 'https://api.test/v1/metrics?page=2');
const refused = (reason: classes.RefusalReason) => new FetchRefusedError('Limit Exceeded: URLFetch URL Length.', 'https://api.test/v1/x', reason);
const rateLimited = new RateLimitedError("The API's rate limit was reached. Try again in 15 seconds.", 15);
const outOfTime = new OutOfTimeError(
  "This run is close to Apps Script's time limit (1 s left, and an answer can take 2 s), so 1 request was not sent. Run it again to finish; for a formula, narrow the date range or split it over several formulas.",
);
const config = new ConfigError("No API token is set. Open the add-in's settings.");
const input = new InputError('The cell shows the error #N/A.');
const access = new FormulaAccessError('metric m1', "it is not a metric of any company the spreadsheet's owner allowed (1 company)");
const lock = new LockUnavailableError(30_400);
const untrusted = new classes.UntrustedRecordError('The snapshot at Sheet1!A1', 'Insert the snapshot again.');
const notAmong = new NotAmongAllowedError('metric', 'm1', 'the companies this spreadsheet may read (1 company)');
const changed = new ListChangedError(3);
const PERMISSION =
  'Scheduling a snapshot refresh needs the permission "Allow this application to run when you are not present", which was not granted to Portfolio Metrics. To grant it, open Extensions › Portfolio Metrics › Open sidebar and tick it when Google asks; if Google does not ask, remove Portfolio Metrics at myaccount.google.com › Security › Third-party apps with account access, then open it again and allow every permission. Everything else keeps working meanwhile.';
const permission = new classes.PermissionMissingError(PERMISSION, ['https://www.googleapis.com/auth/script.scriptapp']);

const QUOTA =
  "Apps Script's daily quota of URL fetches for this account is used up, so nothing was sent. It renews within 24 hours of its first use; until then formulas still show the values the add-in has cached.";
const PROPERTIES_QUOTA =
  "Apps Script's daily quota of property reads and writes for this account is used up, so the add-in cannot read its settings. It renews within 24 hours of its first use; until then cells keep the values they show until they recalculate, and the rest of the spreadsheet works as usual.";
const TRIGGER_QUOTA =
  "Apps Script's daily quota of run time for scheduled runs for this account is used up, so the scheduled refresh did not run. It renews within 24 hours of its first use; until then the sidebar, the menus and formulas work as usual, and a refresh started from the sidebar still runs.";
const URL_LONG =
  'Apps Script refused to send a request whose address is over its 2 kB limit, so nothing was sent. Ask for fewer metrics at once, or split them over several formulas.';
const TOO_LARGE = 'Apps Script refused to send a request that is too large, so nothing was sent. Select fewer rows at a time.';
const OTHER =
  'Apps Script refused to send the request (Limit Exceeded: URLFetch URL Length.), so nothing was sent. Try again later, and report it if it persists.';
const ACCESS =
  "Formulas in this spreadsheet may not read metric m1: it is not a metric of any company the spreadsheet's owner allowed (1 company). The spreadsheet's owner can allow a company in the add-in's Settings › Formula access, or by inserting one of its metrics from the sidebar as a live formula.";

describe('userSentence', () => {
  it.each<[string, unknown, string]>([
    [
      'ApiError 401',
      unauthorized,
      "The API token was rejected. Open Extensions › Portfolio Metrics › Open sidebar › Settings and set a new token (the platform's API support issues them).",
    ],
    ['ApiError 403', forbidden, 'This API token has no access to that company or record. Check the id, or ask an admin of the company for access.'],
    ['ApiError 404', notFound, 'Not found: the API has no record at /metrics/m1/data_points: Metric not found.. Check the id.'],
    ['ApiError 400 on an id', paramMissing, 'Metric not found: no metric with that id is visible to this token. Check the id.'],
    ['ApiError 400 on another field', paramOther, 'The API rejected the parameter "start_date": must be a date..'],
    ['ApiError 422', invalid, 'The API refused the value of "value": must be a decimal number, e.g. 1250.5..'],
    ['ApiError 422 naming no field', api(422), 'The API refused the value of a field.'],
    ['ApiError 429', limited, "The API's rate limit was reached. Try again in 30 seconds."],
    ['ApiError 429 without Retry-After', api(429), "The API's rate limit was reached. Try again in 60 seconds."],
    ['ApiError 5xx', serverError, 'The API had a temporary problem (HTTP 503). Try again in a minute.'],
    [
      'ApiError unexpected',
      unreadable,
      'The API answered HTTP 200, which the add-in does not expect: the response was not JSON. Try again, and report it if it persists.',
    ],
    ['NetworkError', network, "Could not reach the API at api.test. Check the base URL in the add-in's settings and try again."],
    ['FetchRefusedError daily_quota', refused('daily_quota'), QUOTA],
    ['FetchRefusedError url_too_long', refused('url_too_long'), URL_LONG],
    ['FetchRefusedError payload_too_large', refused('payload_too_large'), TOO_LARGE],
    ['FetchRefusedError other', refused('other'), OTHER],
    ['RateLimitedError', rateLimited, rateLimited.message],
    ['OutOfTimeError', outOfTime, outOfTime.message],
    ['ConfigError', config, "No API token is set. Open the add-in's settings."],
    ['InputError', input, 'The cell shows the error #N/A.'],
    ['FormulaAccessError', access, ACCESS],
    ['LockUnavailableError', lock, 'Another run of the add-in for this account held its lock for 30 seconds. Wait a moment and try again.'],
    [
      'NotAmongAllowedError',
      notAmong,
      "No metric with id m1 was found in the companies this spreadsheet may read (1 company): check the id. If it is another company's, the spreadsheet's owner can allow that company in the add-in's Settings › Formula access, or by inserting one of its metrics from the sidebar as a live formula.",
    ],
    ['ListChangedError', changed, 'The data changed on the API while the add-in read it, 3 times: nothing was kept. Try again in a moment.'],
    ['PermissionMissingError', permission, PERMISSION],
    // Apps Script's own refusal of a permission no guard asked about first: the same sentence, named by the call.
    [
      "a declined scope, in Apps Script's words",
      new Error('You do not have permission to call ScriptApp.newTrigger. Required permissions: https://www.googleapis.com/auth/script.scriptapp'),
      PERMISSION,
    ],
    [
      'a scope the manifest lacks, alternatives',
      new Error(
        'Specified permissions are not sufficient to call SpreadsheetApp.getActiveSpreadsheet. Required permissions: (https://www.googleapis.com/auth/spreadsheets.currentonly || https://www.googleapis.com/auth/spreadsheets)',
      ),
      PERMISSION.replace('Scheduling a snapshot refresh', 'Reading and writing this spreadsheet').replace(
        '"Allow this application to run when you are not present"',
        '"See, edit, create and delete your spreadsheets in Google Drive"',
      ),
    ],
    ['the Properties daily quota, read', new Error('Service invoked too many times for one day: properties.'), PROPERTIES_QUOTA],
    ['the Properties daily quota, write', new Error('Service invoked too many times for one day: graphite property writes.'), PROPERTIES_QUOTA],
    ["triggers' daily runtime", new Error('Service using too much computer time for one day'), TRIGGER_QUOTA],
    ["another service's daily quota", new Error('Service invoked too many times for one day: email.'), 'Service invoked too many times for one day: email.'],
    ['a bug', new TypeError('x is undefined'), 'x is undefined'],
    ['not an Error', 'boom', 'boom'],
  ])('%s', (_, error, sentence) => {
    expect(userSentence(error)).toBe(sentence);
  });

  it('tells a cell that ran out of time before asking the API to recalculate, and says the rest as anywhere', () => {
    const RECALCULATE =
      'Recalculate to try again: Extensions › Portfolio Metrics › Refresh data. If it happens again, narrow the date range or split it over several formulas.';
    expect(userSentence(new OutOfTimeError(outOfTime.message, 1), 'cell')).toBe(
      `This cell ran out of its 30 seconds before asking the API, so 1 request to the API was not sent. ${RECALCULATE}`,
    );
    expect(userSentence(new OutOfTimeError(outOfTime.message, 3), 'cell')).toBe(
      `This cell ran out of its 30 seconds before asking the API, so 3 requests to the API were not sent. ${RECALCULATE}`,
    );
    expect(userSentence(new OutOfTimeError(outOfTime.message, 3))).toBe(outOfTime.message);
    expect(userSentence(network, 'cell')).toBe(userSentence(network));
  });
});

describe('shortReason', () => {
  it.each<[string, unknown, ReasonSubject | undefined, string]>([
    // An export's refusals are about a metric.
    ['404 of a metric', notFound, 'metric', 'the API has no such metric (Metric not found)'],
    ['404 of a metric, no message', api(404), 'metric', 'the API has no such metric'],
    ['403 of a metric', forbidden, 'metric', 'this API token has no access to the metric'],
    ['422 of a metric', invalid, 'metric', 'the API refused the request (HTTP 422, "value": must be a decimal number, e.g. 1250.5)'],
    ['400 of a metric', paramOther, 'metric', 'the API refused the request (HTTP 400, "start_date": must be a date)'],
    // An audit push's refusals are about a fund's property value.
    ['422 of a property value', invalid, 'property value', 'the API refused the value: must be a decimal number, e.g. 1250.5'],
    [
      '422 of a property value, two problems',
      twoInvalid,
      'property value',
      'the API refused the option: is not an option of this property; the API refused the value: Name has already been taken',
    ],
    ['403 of a property value', forbidden, 'property value', "this API token has no access to this fund's property values (HTTP 403)"],
    ['404 of a property value', notFound, 'property value', 'the API refused the request (HTTP 404: Metric not found)'],
    ['400 of a property value', paramOther, 'property value', 'the API refused the request (HTTP 400, field start_date: must be a date)'],
    // An import's refusals are about a record.
    [
      '422 of a record',
      twoInvalid,
      'record',
      'the API refused it: portfolio_property_option_id is not an option of this property; Name has already been taken (HTTP 422)',
    ],
    ['422 of a record, field only', api(422, [{ type: 'attribute_invalid', field: 'email' }]), undefined, 'the API refused it: email is not valid (HTTP 422)'],
    [
      '403 of a record',
      forbidden,
      'record',
      'the API refused it: this API token has no access to that company or record. Check the id, or ask an admin of the company for access (HTTP 403)',
    ],
    // Apps Script's refusals read the same in every report.
    ['FetchRefusedError', refused('daily_quota'), 'metric', `not sent: ${QUOTA.slice(0, -1)}`],
    ['FetchRefusedError too large', refused('payload_too_large'), 'record', `not sent: ${TOO_LARGE.slice(0, -1)}`],
    ['NetworkError', network, undefined, 'address unavailable: https://api.test/v1/metrics'],
    ['RateLimitedError', rateLimited, undefined, "the API's rate limit was reached. Try again in 15 seconds"],
    ['OutOfTimeError', outOfTime, undefined, outOfTime.message.charAt(0).toLowerCase() + outOfTime.message.slice(1, -1)],
    ['ConfigError', config, undefined, "no API token is set. Open the add-in's settings"],
    ['InputError', input, undefined, 'the cell shows the error #N/A'],
    ['FormulaAccessError', access, undefined, `f${ACCESS.slice(1, -1)}`],
    ['LockUnavailableError', lock, undefined, 'another run of the add-in for this account held its lock for 30 seconds. Wait a moment and try again'],
    ['PermissionMissingError', permission, undefined, `s${PERMISSION.slice(1, -1)}`],
    ['an item of a refusal', { type: 'attribute_invalid', message: 'is not a valid date.' }, undefined, 'is not a valid date'],
    ['an item without a message', { type: 'attribute_invalid' }, undefined, 'attribute_invalid'],
    ['not an Error', 'boom.', undefined, 'boom'],
  ])('%s', (_, error, subject, reason) => {
    expect(shortReason(error, subject)).toBe(reason);
  });
});

describe('the error classes', () => {
  const tabled = [unauthorized, network, refused('other'), rateLimited, outOfTime, config, input, access, lock, untrusted, notAmong, changed, permission];

  it('are all AddinErrors, and the tables above hold one of each', () => {
    const exported: unknown[] = Object.values(classes).filter((value) => typeof value === 'function' && value.prototype instanceof Error);
    const concrete = exported.filter((cls) => cls !== AddinError);
    expect(concrete.length).toBeGreaterThanOrEqual(9);
    for (const cls of concrete) {
      expect((cls as typeof AddinError).prototype).toBeInstanceOf(AddinError);
      expect(tabled.some((error) => error.constructor === cls)).toBe(true);
    }
  });

  it('say a record the document holds was changed by someone else, and what to do', () => {
    expect(userSentence(untrusted)).toBe(
      'The snapshot at Sheet1!A1 was changed by someone else (or written by another user), so it was not used with your connection. Insert the snapshot again.',
    );
    expect(untrusted).toBeInstanceOf(InputError);
  });

  it('keep out of time apart from the rate limit', () => {
    expect(outOfTime).not.toBeInstanceOf(RateLimitedError);
    expect(rateLimited).not.toBeInstanceOf(OutOfTimeError);
    expect(access).toBeInstanceOf(InputError);
  });

  it('say what an API refusal was about, so a formula can tell a fund-only listing from the rest', () => {
    const fundOnly = explainPortfolioForbidden(new ApiError(403, [], 'GET', '/v1/portfolio_company_profiles', undefined, 'portfolio_company_profiles'));
    expect(fundOnly).toBeInstanceOf(InputError);
    expect(userSentence(fundOnly)).toBe(
      "This token cannot read that fund's portfolio: portfolio data exists only for investor (fund) companies the token can access. Check the company id.",
    );
    const metrics = new ApiError(403, [], 'GET', '/v1/metrics', undefined, 'metrics');
    expect(explainPortfolioForbidden(metrics)).toBe(metrics);
  });
});

describe('classifyFailure, the one classifier of the jobs that write', () => {
  // [error, export, push, import]: a PUT job sends an unknown outcome again; an import's POST must not be.
  it.each<[string, unknown, string, string, string]>([
    ['rate limited', rateLimited, 'wait', 'wait', 'wait'],
    ['out of time', outOfTime, 'wait', 'wait', 'wait'],
    ['429', limited, 'wait', 'wait', 'wait'],
    ['lost connection', network, 'unknown', 'unknown', 'unknown'],
    ['5xx', serverError, 'unknown', 'unknown', 'unknown'],
    ['unreadable 2xx', unreadable, 'unknown', 'unknown', 'unknown'],
    ['Apps Script refused to send', refused('daily_quota'), 'refused', 'refused', 'refused'],
    ['422', invalid, 'refused', 'refused', 'refused'],
    ['token rejected', unauthorized, 'stop', 'stop', 'stop'],
    ['settings missing', config, 'stop', 'stop', 'stop'],
    ['an id the client refused', input, 'stop', 'stop', 'refused'],
    ['a bug', new TypeError('x is undefined'), 'stop', 'stop', 'unknown'],
    ["the Properties daily quota (the job's bookkeeping)", new Error('Service invoked too many times for one day: properties.'), 'stop', 'stop', 'unknown'],
  ])('%s', (_, error, ...kinds) => {
    expect((['export', 'push', 'import'] as const).map((job) => classifyFailure(error, job).kind)).toEqual(kinds);
  });

  it("words a refusal for its job, and keeps the ApiError only for the API's own refusals", () => {
    expect(classifyFailure(forbidden, 'export')).toEqual({ kind: 'refused', reason: shortReason(forbidden, 'metric'), error: forbidden });
    expect(classifyFailure(forbidden, 'push')).toEqual({ kind: 'refused', reason: shortReason(forbidden, 'property value'), error: forbidden });
    expect(classifyFailure(forbidden, 'import')).toEqual({ kind: 'refused', reason: shortReason(forbidden, 'record'), error: forbidden });
    expect(classifyFailure(new TypeError('x is undefined'), 'push')).toEqual({
      kind: 'stop',
      message: 'The push stopped on an unexpected error: x is undefined',
    });
    expect(classifyFailure(new Error('Service invoked too many times for one day: properties.'), 'push')).toEqual({ kind: 'stop', message: PROPERTIES_QUOTA });
    expect(classifyFailure(outOfTime, 'push')).toEqual({ kind: 'wait', message: outOfTime.message, outOfTime: true });
    expect(classifyFailure(limited, 'import')).toEqual({ kind: 'wait', message: userSentence(limited), retryAfterMs: 30_000 });
  });
});
