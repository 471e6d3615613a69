// The floor of the audit's reads, as an Apps Script file: the same records as naiveAudit, in as few
// round trips as the API allows. Round 1: the first page of profiles and of properties; round 2: their
// other pages; round 3: every profile's values and every select property's options, all together.

/**
 * Reads what an audit of a fund must read, concurrently.
 * @param {string} companyId The fund.
 * @return {{profiles: number, properties: number, options: number, values: number, roundTrips: number}} What was read.
 */
function floorAudit(companyId) {
  let roundTrips = 0;
  const fetchAll = function (requests) {
    roundTrips++;
    return fetchAllJson_(requests);
  };
  const lists = [
    { path: '/portfolio_company_profiles', query: { company_id: companyId }, key: 'portfolio_company_profiles' },
    { path: '/portfolio_properties', query: { company_id: companyId }, key: 'portfolio_properties' },
  ];
  const firstPages = fetchAll(
    lists.map(function (list) {
      return floorRequest_(list.path, Object.assign({ page: 1 }, list.query));
    }),
  );
  const items = firstPages.map(function (body, i) {
    return body[lists[i].key];
  });
  const rest = [];
  firstPages.forEach(function (body, i) {
    for (let page = 2; page <= body.meta.total_pages; page++)
      rest.push({ list: i, request: floorRequest_(lists[i].path, Object.assign({ page: page }, lists[i].query)) });
  });
  if (rest.length > 0) {
    fetchAll(
      rest.map(function (r) {
        return r.request;
      }),
    ).forEach(function (body, i) {
      items[rest[i].list] = items[rest[i].list].concat(body[lists[rest[i].list].key]);
    });
  }
  const profiles = items[0];
  const properties = items[1];
  const selects = properties.filter(function (p) {
    return p.data_type === 'select' || p.data_type === 'multiselect';
  });
  const reads = profiles
    .map(function (profile) {
      return floorRequest_('/portfolio_property_values', { portfolio_company_profile_id: profile.id, page: 1 });
    })
    .concat(
      selects.map(function (property) {
        return floorRequest_('/portfolio_property_options', { portfolio_property_id: property.id });
      }),
    );
  const answers = fetchAll(reads);
  let values = 0;
  let options = 0;
  answers.forEach(function (body, i) {
    if (i < profiles.length) {
      if (body.meta.total_pages > 1) throw new Error('floorAudit reads one page of values per profile; give profiles at most 25 values');
      values += body.portfolio_property_values.length;
    } else {
      options += body.portfolio_property_options.length;
    }
  });
  return { profiles: profiles.length, properties: properties.length, options: options, values: values, roundTrips: roundTrips };
}

function floorRequest_(path, query) {
  const settings = PropertiesService.getUserProperties();
  const parts = Object.keys(query).map(function (key) {
    return encodeURIComponent(key) + '=' + encodeURIComponent(query[key]);
  });
  return {
    url: settings.getProperty('METRICS_API_BASE_URL') + path + '?' + parts.join('&'),
    headers: { Authorization: 'Bearer ' + settings.getProperty('METRICS_API_TOKEN'), Accept: 'application/json' },
    muteHttpExceptions: true,
  };
}

function fetchAllJson_(requests) {
  return UrlFetchApp.fetchAll(requests).map(function (response, i) {
    if (response.getResponseCode() !== 200) throw new Error(requests[i].url + ' answered ' + response.getResponseCode() + ': the floor assumes no 429');
    return JSON.parse(response.getContentText());
  });
}
