import { useId, useState } from 'react';
import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { useRefusal } from '../../api/errors';

/**
 * The product upload form: download the .xlsx template, upload it filled in; the products come back and join the
 * list, or every row error is listed with its row number (the server validates each row, spec 02 section 5). The
 * refusal is kept as it came and said when drawn, so its rows and columns follow a language switch.
 */
export function ProductUpload({ onProducts }: { onProducts: (products: Record<string, unknown>[]) => void }) {
  const { t } = useTranslation('requests');
  const id = useId();
  const refusal = useRefusal();
  const [pending, setPending] = useState(false);
  const [count, setCount] = useState<number | null>(null);
  const upload = async (file: File) => {
    setPending(true);
    refusal.clear();
    setCount(null);
    const body = new FormData();
    body.append('file', file);
    try {
      // Multipart: the document does not describe the file body (the server reads the stream itself).
      const r = await data(api.POST('/api/product-upload', { body: body as never, handleErrors: [400, 413] }));
      setCount(r.count);
      onProducts(r.products);
    } catch (e) {
      refusal.refuse(e);
    } finally {
      setPending(false);
    }
  };
  const errors = refusal.messages;
  return (
    <Box borderWidth="1px" borderStyle="dashed" borderRadius="md" p="4" data-testid="product-upload">
      <Text fontWeight="semibold" mb="2">
        {t('wizard.productUpload.title')}
      </Text>
      <Flex gap="3" align="center" wrap="wrap">
        <Button asChild size="sm" variant="outline">
          <a href="/api/product-upload/template" download data-testid="product-template">
            {t('wizard.productUpload.template')}
          </a>
        </Button>
        <Text asChild>
          <label htmlFor={id}>{t('wizard.productUpload.upload')}</label>
        </Text>
        <input id={id} type="file" accept=".xlsx" disabled={pending} data-testid="product-upload-file" onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void upload(f);
          e.target.value = '';
        }} />
      </Flex>
      {count !== null && <Text mt="2" color="fg.success">{t('wizard.productUpload.added', { count })}</Text>}
      {errors.length > 0 && (
        <Stack mt="2" gap="1" data-testid="product-upload-errors">
          {errors.map((m, i) => (
            <Text key={i} color="fg.error" fontSize="sm">
              {m}
            </Text>
          ))}
        </Stack>
      )}
    </Box>
  );
}
