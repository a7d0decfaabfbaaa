import { useId, useState } from 'react';
import { Box, Button, Flex, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiError, messagesOf } from '../../api/errors';

export interface UploadedAttachment {
  id: string;
  name: string;
  category: string;
  size: number;
}

/**
 * One file field: uploads the chosen file to the request's attachments (the server checks type by magic bytes,
 * size, name and per-category counts, spec 02 section 8) and shows its refusal next to the field.
 */
export function AttachmentUpload(p: {
  facilityPublicId: string;
  requestId: string;
  category: string;
  label: string;
  onUploaded: (a: UploadedAttachment) => void;
  testId?: string;
}) {
  const { t } = useTranslation(['requests']);
  const id = useId();
  const [error, setError] = useState<string[]>([]);
  const [pending, setPending] = useState(false);
  const [name, setName] = useState('');
  const upload = async (file: File) => {
    setPending(true);
    setError([]);
    const body = new FormData();
    body.append('file', file);
    try {
      const a = await api.post<UploadedAttachment>('/api/attachments', body, {
        query: { facilityPublicId: p.facilityPublicId, category: p.category, requestId: p.requestId },
        handleErrors: [400, 413],
      });
      setName(a.name);
      p.onUploaded(a);
    } catch (e) {
      if (e instanceof ApiError) setError(messagesOf(e, t));
    } finally {
      setPending(false);
    }
  };
  return (
    <Box>
      <Flex gap="3" align="center" wrap="wrap">
        <Text asChild fontWeight="medium">
          <label htmlFor={id}>{p.label}</label>
        </Text>
        <input
          id={id}
          type="file"
          accept=".pdf,.png,.jpg,.jpeg"
          data-testid={p.testId}
          disabled={pending}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void upload(f);
            e.target.value = '';
          }}
        />
        {pending && <Button size="xs" loading variant="ghost" />}
        {name && <Text fontSize="sm" color="fg.success" data-testid="uploaded-name">{t('attachments.uploaded', { name })}</Text>}
      </Flex>
      {error.map((m) => (
        <Text key={m} color="fg.error" fontSize="sm" data-testid="upload-error">
          {m}
        </Text>
      ))}
    </Box>
  );
}
