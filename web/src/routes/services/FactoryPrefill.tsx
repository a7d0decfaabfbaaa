import { useEffect, useRef, useState } from 'react';
import { Alert, Box, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { Ltr } from '../../components/Bidi';
import { countryName } from '../../lib/countries';
import { listSeparator } from '../../i18n';
import { nameIn } from '../facilities/labels';

/** The step's fields the external factory's record already holds (its `details`, spec 02 section 3 "External factory"). */
const FROM_RECORD: Record<string, string> = {
  productionLines: 'productionLinesCount',
  criticalPoints: 'criticalPointsCount',
  permanentHalalEmployees: 'permanentEmployeeCount',
  shifts: 'shiftsCount',
  productionArea: 'productionArea',
};

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Above a step whose section declares `prefill: 'facilityRecord'` (machines/services `SectionDefinition.prefill`: the
 * external certificates' and shipments' `factory`): the chosen factory's address and country as its record gives them,
 * and the step's fields the record holds filled in when they are still empty (said so, and left editable: this request
 * may differ). `fields` are the section's field names; only those are filled.
 */
export function FactoryPrefill(p: { value: Record<string, unknown> | undefined; fields: string[]; onChange: (v: Record<string, unknown>) => void; readOnly: boolean }) {
  const { t, i18n } = useTranslation('requests');
  const publicId = typeof p.value?.facilityPublicId === 'string' ? p.value.facilityPublicId : '';
  const facility = useApi(apiQuery('/api/Facility/GetFacilityByPublicId', { params: { query: { publicId } } }), { enabled: !!publicId });
  const f = facility.data?.publicId === publicId ? facility.data : undefined;
  const [filled, setFilled] = useState<string[]>([]);
  const done = useRef<string | null>(null);
  const { value, fields, onChange, readOnly } = p;

  useEffect(() => {
    if (!f || readOnly || done.current === f.publicId) return;
    done.current = f.publicId;
    const add: Record<string, unknown> = {};
    for (const field of fields) {
      const held = f.details[FROM_RECORD[field] ?? ''];
      if (FROM_RECORD[field] && isEmpty(value?.[field]) && !isEmpty(held)) add[field] = String(held);
    }
    setFilled(Object.keys(add));
    if (Object.keys(add).length) onChange({ ...value, ...add });
  }, [f, fields, value, onChange, readOnly]);

  if (!f) return null;
  const address = [f.details.address, f.details.streetName, f.details.district, f.city, f.details.zipCode].filter((s) => typeof s === 'string' && s.trim()).join(listSeparator(i18n.language));
  return (
    <Stack gap="3" mb="4" data-testid="factory-record">
      <Box borderWidth="1px" borderRadius="md" p="3" bg="bg.muted">
        <Text fontWeight="semibold" mb="2">
          {t('wizard.factoryRecord')}: {nameIn(f, i18n.language)}
          {f.registrationNumber ? (
            <>
              {' — '}
              <Ltr>{f.registrationNumber}</Ltr>
            </>
          ) : null}
        </Text>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="2" fontSize="sm">
          <Text data-testid="factory-record-country">
            {t('wizard.factoryCountry')}: {countryName(f.countryCode, i18n.language)}
          </Text>
          {address && (
            <Text data-testid="factory-record-address">
              {t('wizard.factoryAddress')}: <bdi>{address}</bdi>
            </Text>
          )}
        </SimpleGrid>
      </Box>
      {filled.length > 0 && (
        <Alert.Root status="info" data-testid="factory-prefilled">
          <Alert.Indicator />
          <Alert.Description>{t('wizard.factoryPrefilled', { fields: filled.map((k) => t(`fields.${k}`)).join(listSeparator(i18n.language)) })}</Alert.Description>
        </Alert.Root>
      )}
    </Stack>
  );
}
