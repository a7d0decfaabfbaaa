import { createContext, useContext } from 'react';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';

export type AttachmentInfo = ApiResponse<'/api/attachments'>[number];

/** File names of a request's attachments by id, so lists show "licence.pdf", not "attached". */
export const AttachmentNames = createContext<ReadonlyMap<string, AttachmentInfo>>(new Map());

export const useAttachmentNames = () => useContext(AttachmentNames);

/** The request's files (GET /api/attachments), as a map by id; `reload` after an upload or removal. */
export function useRequestAttachments(facilityPublicId: string | undefined, requestId: string | undefined) {
  const query = apiQuery('/api/attachments', { params: { query: { facilityPublicId: facilityPublicId ?? '', requestId } }, silent: true, handleErrors: false });
  const list = useApi(query, { enabled: !!facilityPublicId && !!requestId });
  return { map: new Map((list.data ?? []).map((a) => [a.id, a])), reload: async () => void (await list.refetch()) };
}
