// Places: the gazetteer's loader, suggestions, the place check of ride and request inputs, and the
// distance SQL other features build on (Browse 'Near', along the route).
export {
  boxAround,
  EARTH_RADIUS_MILES,
  inBox,
  MILES_PER_DEGREE,
  milesBetween,
  withinMiles,
  type Box,
  type Point,
} from './geo';
export { cursorMiles, nearestPage, pointOf, roundMiles, textMatches, verifiedOwner, visibleTo } from './filters';
export { gazetteerPath, loadPlaces, parseGazetteer } from './load';
export { placeRoutes } from './routes';
export { createPlaceService, placeNotFound, type PlacePoint, type PlaceService } from './service';
