import * as model from './model';

export * from './model';

/** Every entity class, for the ORM: what the entity modules export at run time (classes only). */
export const entities = Object.values(model).filter((value) => typeof value === 'function');
