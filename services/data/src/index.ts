export { dataService } from './app';
export { dataDeps } from './data-deps';
export type { DataDeps } from './routes/context';
export { applicationsCollection, documentsCollection, typesCollection } from './domain/collections';
export { publicView, type EntityScope, type StoredEntity } from './entities/entity';
export { History } from './entities/history';
export { applyModifier } from './domain/paths';
export { updateDocumentAs, type DocumentUpdateRequest } from './entities/update-document-as';
