// The dashboard and the admin panel show Life's catalog texts the same way: one copy, in shared.
export { catalogDescription, catalogType } from '@/shared/services/utils/catalog-text';
