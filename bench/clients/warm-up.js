// Starts the runtime's HTTP worker before anything is measured: a fresh runtime starts it on its first
// request, and that start (about 100 ms) would otherwise count in the first run's simulated time.

/** Asks the emulator's control API for its health: not an API request, neither counted nor logged. */
function benchWarmUp() {
  const base = PropertiesService.getUserProperties().getProperty('METRICS_API_BASE_URL');
  return UrlFetchApp.fetch(base + '/__emulator/health').getResponseCode();
}
