export { Card } from './Card';
export { CardTransaction } from './CardTransaction';
export { DelegatedKey } from './DelegatedKey';
