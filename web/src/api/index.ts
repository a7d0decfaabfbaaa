export { api, buildUrl, type RequestOptions } from './client';
export { ApiError, messagesOf, type ApiValidationError } from './errors';
export { useApiQuery, useApiMutation, type QueryState, type MutationState } from './hooks';
