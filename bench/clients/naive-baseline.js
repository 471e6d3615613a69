// The benchmark's naive baseline, as an Apps Script file run in the same runtime as the add-in: what a
// first, straightforward add-in would do. One request at a time over UrlFetchApp, the API's default page
// size (25), no cache, one request per METRIC_VALUE cell, one PUT per batch of 50, and a fixed 1 s sleep
// on every 429 with no cap but the execution's time limit (the loop the style guide warns against).

/**
 * Every data point of one metric between two dates, page after page, as a table oldest first.
 * @param {string} metricId The metric.
 * @param {string} startDate First day, YYYY-MM-DD.
 * @param {string} endDate Last day, YYYY-MM-DD.
 * @return {number} The number of rows the table has.
 */
function naivePullSeries(metricId, startDate, endDate) {
  const points = readAllPages_('/data_points', { metric_id: metricId, start_date: startDate, end_date: endDate }, 'data_points');
  const rows = points
    .map(function (point) {
      return [point.date, point.value === null ? '' : Number(point.value)];
    })
    .sort(function (a, b) {
      return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
    });
  return rows.length;
}

/**
 * One METRIC_VALUE cell: the value of the point dated `date`, from its own request.
 * @param {string} metricId The metric.
 * @param {string} date The period's first day, YYYY-MM-DD.
 * @return {number|string} The value, or '' when there is none.
 */
function naiveMetricValue(metricId, date) {
  const page = get_('/data_points', { metric_id: metricId, start_date: date, end_date: date });
  const point = page.data_points[0];
  return point && point.value !== null ? Number(point.value) : '';
}

/**
 * Sends a long-layout range (a header row, then date and value) to one metric, 50 rows per PUT, in order.
 * @param {string} metricId The metric.
 * @param {string} a1 The range, e.g. Sheet1!A1:B10001.
 * @return {number} The number of points the API confirmed.
 */
function naiveExport(metricId, a1) {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const timeZone = spreadsheet.getSpreadsheetTimeZone();
  const values = spreadsheet.getRange(a1).getValues().slice(1);
  let confirmed = 0;
  for (let start = 0; start < values.length; start += 50) {
    const batch = values.slice(start, start + 50).map(function (row) {
      return { date: Utilities.formatDate(row[0], timeZone, 'yyyy-MM-dd'), value: String(row[1]) };
    });
    const answer = send_('put', '/metrics/' + encodeURIComponent(metricId) + '/data_points', {}, { data_points: batch });
    confirmed += answer.data_points.length;
  }
  return confirmed;
}

/**
 * What an audit of a fund must read, one request after another: its profiles, its properties, the
 * options of every select and multiselect property, then each profile's values, page by page.
 * @param {string} companyId The fund.
 * @return {{profiles: number, properties: number, options: number, values: number}} What was read.
 */
function naiveAudit(companyId) {
  const profiles = readAllPages_('/portfolio_company_profiles', { company_id: companyId }, 'portfolio_company_profiles');
  const properties = readAllPages_('/portfolio_properties', { company_id: companyId }, 'portfolio_properties');
  let options = 0;
  properties.forEach(function (property) {
    if (property.data_type !== 'select' && property.data_type !== 'multiselect') return;
    options += get_('/portfolio_property_options', { portfolio_property_id: property.id }).portfolio_property_options.length;
  });
  let values = 0;
  profiles.forEach(function (profile) {
    values += readAllPages_('/portfolio_property_values', { portfolio_company_profile_id: profile.id }, 'portfolio_property_values').length;
  });
  return { profiles: profiles.length, properties: properties.length, options: options, values: values };
}

function readAllPages_(path, query, key) {
  let items = [];
  for (let page = 1; ; page++) {
    const body = get_(path, Object.assign({}, query, { page: page }));
    items = items.concat(body[key]);
    if (page >= body.meta.total_pages) return items;
  }
}

function get_(path, query) {
  return send_('get', path, query, undefined);
}

function send_(method, path, query, body) {
  const settings = PropertiesService.getUserProperties();
  const url = settings.getProperty('METRICS_API_BASE_URL') + path + queryString_(query);
  const options = {
    method: method,
    headers: { Authorization: 'Bearer ' + settings.getProperty('METRICS_API_TOKEN'), Accept: 'application/json' },
    muteHttpExceptions: true,
  };
  if (body !== undefined) {
    options.contentType = 'application/json';
    options.payload = JSON.stringify(body);
  }
  for (;;) {
    const response = UrlFetchApp.fetch(url, options);
    const status = response.getResponseCode();
    if (status === 429) {
      Utilities.sleep(1000);
      continue;
    }
    if (status >= 300) throw new Error(method.toUpperCase() + ' ' + path + ' answered ' + status + ': ' + response.getContentText().slice(0, 200));
    return JSON.parse(response.getContentText());
  }
}

function queryString_(query) {
  const parts = Object.keys(query).map(function (key) {
    return encodeURIComponent(key) + '=' + encodeURIComponent(query[key]);
  });
  return parts.length ? '?' + parts.join('&') : '';
}
