export * from './card-lifecycle';
