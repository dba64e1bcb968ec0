/** The OpenAPI 3.1 document of the service, generated from the contract (a build step, never by hand). */
export { buildOpenApiDocument, type OpenApiOptions } from './document.js';
export { routes, type Route } from './routes.js';
