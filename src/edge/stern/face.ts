// stern's public face: the back office's routes, how they reach the components, who may use them.
export { sternAuthorized, sternEnabled } from './basic-auth.js';
export { intraVia } from './intra.js';
export { sternEndpoints } from './routes.js';
