export { scaChallenge } from './sca-challenge';
