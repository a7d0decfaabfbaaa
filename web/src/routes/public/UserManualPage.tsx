import { Box, Button, Link as ChakraLink, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { DownloadIcon } from '../../components/icons';
import { PublicPage } from '../../components/public/PublicPage';

/** The user manual (spec 01 section 2: embedded PDF): a viewer of the PDF in the UI language and a download link. */
export function UserManualPage() {
  const { t, i18n } = useTranslation('public');
  const file = `/user-manual-${i18n.language === 'ar' ? 'ar' : 'en'}.pdf`;
  return (
    <PublicPage
      pageKey="user-manual"
      fallbackTitle={t('nav.userManual')}
      actions={
        <Button asChild colorPalette="brand" size="sm">
          <a href={file} download data-testid="manual-download">
            <DownloadIcon />
            {t('manual.download')}
          </a>
        </Button>
      }
    >
      <Stack gap="3">
        <Box borderWidth="1px" borderRadius="md" overflow="hidden" bg="bg" h={{ base: '70vh', lg: '80vh' }}>
          {/* <object> falls back to its content where the browser has no PDF viewer (most phones). */}
          <object data={file} type="application/pdf" width="100%" height="100%" aria-label={t('manual.viewerTitle')} data-testid="manual-viewer">
            <Stack p="6" gap="3" align="start">
              <Text>{t('manual.fallback')}</Text>
              <ChakraLink href={file} download color="brand.fg" fontWeight="semibold">
                {t('manual.download')}
              </ChakraLink>
            </Stack>
          </object>
        </Box>
      </Stack>
    </PublicPage>
  );
}
