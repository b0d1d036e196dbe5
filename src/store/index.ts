export { Store, StoreError } from './store';
export * from './schema';
