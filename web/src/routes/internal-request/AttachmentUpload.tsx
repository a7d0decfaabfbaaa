import { useId, useRef, useState } from 'react';
import { Box, Button, Flex, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import type { ApiResponse } from '../../api/query';
import { useRefusal } from '../../api/errors';
import { UploadIcon } from '../../components/icons';

export type UploadedAttachment = ApiResponse<'/api/attachments', 'post'>;

/**
 * One file field: uploads the chosen file to the request's attachments (the server checks type by magic bytes,
 * size, name and per-category counts, spec 02 section 8) and shows its refusal next to the field. The browser's
 * own file control ("Choose File / No file chosen", in the browser's language) is hidden behind a translated button.
 */
export function AttachmentUpload(p: {
  facilityPublicId: string;
  requestId: string;
  category: string;
  label: string;
  onUploaded: (a: UploadedAttachment) => void | Promise<void>;
  testId?: string;
  /** Shows "Uploaded: name" after an upload (off where the caller lists the files itself). */
  showUploaded?: boolean;
}) {
  const { t } = useTranslation(['requests']);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const refusal = useRefusal();
  const [pending, setPending] = useState(false);
  const [name, setName] = useState('');
  const upload = async (file: File) => {
    setPending(true);
    refusal.clear();
    const body = new FormData();
    body.append('file', file);
    try {
      const a = await data(
        api.POST('/api/attachments', {
          params: { query: { facilityPublicId: p.facilityPublicId, category: p.category, requestId: p.requestId } },
          // Multipart: the document does not describe the file body (the server reads the stream itself).
          body: body as never,
          handleErrors: [400, 413],
        }),
      );
      setName(a.name);
      await p.onUploaded(a);
    } catch (e) {
      refusal.refuse(e);
    } finally {
      setPending(false);
    }
  };
  const error = refusal.messages;
  return (
    <Box>
      <Flex gap="3" align="center" wrap="wrap">
        <Text id={`${id}-label`} fontWeight="medium" flex="1" minW="40">
          {p.label}
        </Text>
        <input
          ref={input}
          id={id}
          type="file"
          accept=".pdf,.png,.jpg,.jpeg"
          data-testid={p.testId}
          disabled={pending}
          tabIndex={-1}
          aria-hidden
          style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden', clipPath: 'inset(50%)' }}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void upload(f);
            e.target.value = '';
          }}
        />
        <Button size="sm" variant="outline" colorPalette="brand" loading={pending} onClick={() => input.current?.click()}
          aria-labelledby={`${id}-button ${id}-label`}
          id={`${id}-button`}
          aria-describedby={error.length ? `${id}-error` : undefined}
          data-testid={p.testId ? `${p.testId}-button` : undefined}>
          <UploadIcon />
          {t('requests:attachments.choose')}
        </Button>
      </Flex>
      {name && p.showUploaded !== false && (
        <Text fontSize="sm" color="fg.success" data-testid="uploaded-name">
          {t('attachments.uploaded', { name })}
        </Text>
      )}
      <Text fontSize="xs" color="fg.muted" mt="1">
        {t('requests:attachments.types')}
      </Text>
      {error.map((m) => (
        <Text key={m} id={`${id}-error`} color="fg.error" fontSize="sm" data-testid="upload-error" role="alert">
          {m}
        </Text>
      ))}
    </Box>
  );
}
