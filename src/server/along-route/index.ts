// The along-the-route feature's public module (docs/along-route.md): a ride's corridor of open requests,
// 'Ask to carry something', and the corridor SQL that alerts match new requests with. app.ts wires the routes.
export { corridorBox, type Point } from './geometry';
export { alongRideRowSql, routeBox, stopPointsOf } from './route';
export { createAskService, type AskService } from './asks';
export { alongRouteRoutes } from './routes';
export { createAlongRouteService, RIDE_NOT_FOUND, type AlongRouteService } from './service';
