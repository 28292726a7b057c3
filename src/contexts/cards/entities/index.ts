export { Card } from './Card';
export { CardTransaction } from './CardTransaction';
