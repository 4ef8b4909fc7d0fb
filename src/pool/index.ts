export { PooledDecider } from './pooled-decider.js';
