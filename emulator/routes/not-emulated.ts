// The endpoints the document lists without payloads: they exist, so they answer 501 rather than 404.

/** Method and Fastify path of every endpoint whose payloads the API document does not show. */
export const NOT_EMULATED_ENDPOINTS: ReadonlyArray<readonly [method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string]> = [
  ['GET', '/file_tags'],
  ['POST', '/file_tags'],
  ['PUT', '/file_tags/:id'],
  ['DELETE', '/file_tags/:id'],
  ['GET', '/portfolio_files'],
  ['POST', '/portfolio_files'],
  ['GET', '/portfolio_files/:id'],
  ['PUT', '/portfolio_files/:id'],
  ['DELETE', '/portfolio_files/:id'],
  ['GET', '/portfolio_files/:id/download_url'],
  ['POST', '/portfolio_file_upload_requests'],
  ['GET', '/portfolio_folders'],
  ['POST', '/portfolio_folders'],
  ['PUT', '/portfolio_folders/:id'],
  ['DELETE', '/portfolio_folders/:id'],
  ['POST', '/portfolio_notes'],
];
