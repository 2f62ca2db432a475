/* global SwaggerUIBundle */
// Swagger UI on the API's own OpenAPI document; try-it sends the key the partner authorizes with
// (the document's bearer and x-api-key schemes), held in the page's memory only: not persisted, where any script of the origin could read it.
SwaggerUIBundle({
  // relative to the page: /v1/docs reads /v1/openapi.json, /api/v1/docs /api/v1/openapi.json
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
});
