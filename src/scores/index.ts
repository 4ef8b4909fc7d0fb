/** The score and education API, served on the API thread. */
export { scoresApi } from './scores-api.js';
