export { api, buildUrl, data } from './client';
export { ApiError, messagesOf, type ApiValidationError } from './errors';
export { apiQuery, useApi, type ApiResponse } from './query';
