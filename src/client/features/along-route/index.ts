/** Along a ride's route: its page, the My Rides card's link and alert, Browse Rides' 'Ask to carry'. */
export { AlongRoutePage } from './components/along-route-page';
export { AskToCarryButton } from './components/ask-to-carry-button';
export { RideRouteActions } from './components/ride-route-actions';
