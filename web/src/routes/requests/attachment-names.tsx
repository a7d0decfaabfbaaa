import { createContext, useContext } from 'react';
import { useApiQuery } from '../../api/hooks';

export interface AttachmentInfo {
  id: string;
  name: string;
  category: string;
  size: number;
  locked: boolean;
}

/** File names of a request's attachments by id, so lists show "licence.pdf", not "attached". */
export const AttachmentNames = createContext<ReadonlyMap<string, AttachmentInfo>>(new Map());

export const useAttachmentNames = () => useContext(AttachmentNames);

/** The request's files (GET /api/attachments), as a map by id; `reload` after an upload or removal. */
export function useRequestAttachments(facilityPublicId: string | undefined, requestId: string | undefined) {
  const list = useApiQuery<AttachmentInfo[]>(facilityPublicId && requestId ? '/api/attachments' : null, {
    query: { facilityPublicId, requestId },
    silent: true,
    handleErrors: false,
  });
  return { map: new Map((list.data ?? []).map((a) => [a.id, a])), reload: list.reload };
}
