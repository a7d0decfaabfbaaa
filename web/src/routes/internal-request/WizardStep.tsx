import { useState } from 'react';
import { Box, Button, Checkbox, Flex, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { CATEGORY_TREE, INTERNAL_REQUEST_ATTACHMENTS, MAIN_CATEGORIES, OPERATIONS, PRODUCT_CATEGORY_CODES, UNITS, type InternalRequestStep, type MainCategory } from '../../../../machines/forms';
import { AttachmentUpload } from './AttachmentUpload';
import { api } from '../../api/client';
import { notify } from '../../components/toaster';
import type { AttachmentInfo } from '../requests/attachment-names';
import { ProductUpload } from './ProductUpload';
import { CheckList, ListEditor, ObjectFields, type FieldSpec } from './StepFields';
import type { Errors } from '../../components/form/wizard-errors';
import { FieldErrorText } from '../../components/form/FieldErrorText';

type Row = Record<string, unknown>;

const FACTORY: FieldSpec[] = [
  { name: 'nameAr', required: true, dir: 'rtl' },
  { name: 'nameEn', required: true, dir: 'ltr' },
  { name: 'commercialRegistrationNumber', required: true },
  { name: 'unifiedNumber' },
  { name: 'activityName' },
  { name: 'totalAnnualRevenue', kind: 'number', required: true },
  { name: 'fullTimeEmployees', kind: 'number', required: true },
];
const ADDRESS: FieldSpec[] = [
  { name: 'city', required: true },
  { name: 'district', required: true },
  { name: 'street', required: true },
  { name: 'zipCode', required: true },
  { name: 'buildingNumber', required: true },
  { name: 'additionalNumber', required: true },
];
const BRANCH: FieldSpec[] = [{ name: 'city', required: true }, { name: 'district' }, { name: 'address', required: true }];
const TRADEMARK: FieldSpec[] = [
  { name: 'nameAr', required: true, dir: 'rtl' },
  { name: 'nameEn', required: true, dir: 'ltr' },
];
const PRODUCTION: FieldSpec[] = [
  { name: 'productionLines', kind: 'number', required: true },
  { name: 'haccpCriticalPoints', kind: 'number', required: true },
  { name: 'permanentHalalEmployees', kind: 'number', required: true },
  { name: 'shifts', kind: 'number', required: true },
  { name: 'productionArea', kind: 'number', required: true },
];

/** The internal certificate form's sections (its agreement is ticked on the wizard's summary, not a section). */
export type InternalSection = Exclude<InternalRequestStep, 'agreement'>;

/** The inputs of one wizard step over its part of the form. */
export function WizardStep(p: {
  step: InternalSection;
  form: Record<string, unknown>;
  setStep: (value: unknown) => void;
  errors: Errors;
  readOnly: boolean;
  facilityPublicId: string;
  requestId: string;
  /** The request's files by id (names, locked or not). */
  files: ReadonlyMap<string, AttachmentInfo>;
  /** Stores a new value of this step at once (an upload or removal must not wait for "Next"). */
  persist: (value: unknown) => Promise<void>;
  /** The attachment categories of the step (another service's rules; the internal certificate's by default). */
  attachmentRules?: { allowed: readonly string[]; required: readonly string[] };
}) {
  const { t, i18n } = useTranslation(['requests', 'forms', 'validation']);
  const { step, form, setStep, readOnly } = p;
  // Names of files uploaded on this page, shown before the refreshed file list arrives.
  const [uploaded, setUploaded] = useState<Record<string, string>>({});
  const value = form[step];
  const attachmentRules = p.attachmentRules ?? INTERNAL_REQUEST_ATTACHMENTS;
  const stepError = p.errors[step];
  // The step's own problem ("required", "add a product") is said once, above the step: the lists and groups below
  // get only their fields' problems, or an empty products step says "required" twice.
  const errors = stepError ? Object.fromEntries(Object.entries(p.errors).filter(([k]) => k !== step)) : p.errors;
  const product: FieldSpec[] = [
    { name: 'nameAr', required: true, dir: 'rtl' },
    { name: 'nameEn', required: true, dir: 'ltr' },
    { name: 'brandAr', required: true, dir: 'rtl' },
    { name: 'brandEn', required: true, dir: 'ltr' },
    { name: 'saudiHsCode', required: true },
    { name: 'globalHsCode', required: true },
    { name: 'productNumber', required: true },
    { name: 'category', kind: 'select', required: true, options: PRODUCT_CATEGORY_CODES.map((c) => ({ value: c, label: t(`forms:category.${c}`) })) },
    { name: 'netWeight', kind: 'number', required: true },
    { name: 'grossWeight', kind: 'number', required: true },
    { name: 'unit', kind: 'select', required: true, options: UNITS.map((u) => ({ value: String(u.code), label: t(`forms:unit.${u.code}`) })) },
    { name: 'technicalSpecifications', kind: 'lines' },
  ];

  const body = (() => {
    switch (step) {
      case 'factory':
        return <ObjectFields path="factory" fields={FACTORY} value={value as Row} onChange={setStep} errors={errors} readOnly={readOnly} />;
      case 'address':
        return (
          <Stack gap="4">
            <Text>
              {t('requests:fields.countryCode')}: {t('requests:wizard.saudiArabia')}
            </Text>
            <ObjectFields path="address" fields={ADDRESS} value={value as Row} onChange={(v) => setStep({ ...v, countryCode: 'SA' })} errors={errors} readOnly={readOnly} />
          </Stack>
        );
      case 'branches': {
        const v = (value ?? { hasBranches: false, items: [] }) as { hasBranches?: boolean; items?: Row[] };
        return (
          <Stack gap="4">
            <Checkbox.Root checked={!!v.hasBranches} disabled={readOnly} onCheckedChange={(e) => setStep({ ...v, hasBranches: !!e.checked, items: v.items ?? [] })} data-testid="has-branches">
              <Checkbox.HiddenInput name="branches.hasBranches" />
              <Checkbox.Control />
              <Checkbox.Label>{t('requests:wizard.hasBranches')}</Checkbox.Label>
            </Checkbox.Root>
            {v.hasBranches && (
              <ListEditor path="branches.items" fields={BRANCH} value={v.items} onChange={(items) => setStep({ ...v, items })} errors={errors} readOnly={readOnly} addLabel={t('requests:wizard.addBranch')} columns={3} />
            )}
          </Stack>
        );
      }
      case 'trademarks':
        return <ListEditor path="trademarks" fields={TRADEMARK} value={value as Row[]} onChange={setStep} errors={errors} readOnly={readOnly} addLabel={t('requests:wizard.addTrademark')} />;
      case 'products':
        return (
          <Stack gap="4">
            {!readOnly && <ProductUpload onProducts={(list) => setStep([...((value as Row[] | undefined) ?? []), ...list])} />}
            <ListEditor path="products" fields={product} value={value as Row[]} onChange={setStep} errors={errors} readOnly={readOnly} addLabel={t('requests:wizard.addProduct')} columns={3} />
          </Stack>
        );
      case 'hsCodes': {
        const list = ((value as string[] | undefined) ?? []).map((code) => ({ code }));
        return (
          <ListEditor
            path="hsCodes"
            fields={[{ name: 'code', required: true }]}
            value={list}
            onChange={(rows) => setStep(rows.map((r) => (r.code === undefined ? '' : String(r.code))))}
            errors={Object.fromEntries(Object.entries(errors).map(([k, m]) => [/^hsCodes\.\d+$/.test(k) ? `${k}.code` : k, m]))}
            readOnly={readOnly}
            addLabel={t('requests:wizard.addHsCode')}
            columns={1}
          />
        );
      }
      case 'categories': {
        const list = (value as { category: MainCategory; subCategories: string[] }[] | undefined) ?? [];
        return (
          <Stack gap="3">
            {MAIN_CATEGORIES.map((c) => {
              const chosen = list.find((x) => x.category === c);
              const subs: readonly string[] = CATEGORY_TREE[c];
              return (
                <Box key={c} borderWidth="1px" borderRadius="md" p="3">
                  <Checkbox.Root
                    checked={!!chosen}
                    disabled={readOnly}
                    onCheckedChange={(e) => setStep(e.checked ? [...list, { category: c, subCategories: [] }] : list.filter((x) => x.category !== c))}
                    data-testid={`category-${c}`}
                  >
                    <Checkbox.HiddenInput name="categories" value={c} />
                    <Checkbox.Control />
                    <Checkbox.Label>{t(`forms:category.${c}`)}</Checkbox.Label>
                  </Checkbox.Root>
                  {chosen && subs.length > 0 && (
                    <Box ps="6" mt="2">
                      <Text fontSize="sm" color="fg.muted" mb="1">
                        {t('requests:wizard.subCategoriesHelp')}
                      </Text>
                      <CheckList
                        name={`sub-${c}`}
                        readOnly={readOnly}
                        options={subs.map((s) => ({ value: s, label: t(`forms:category.${s}`) }))}
                        value={chosen.subCategories}
                        onChange={(v) => setStep(list.map((x) => (x.category === c ? { ...x, subCategories: v } : x)))}
                      />
                    </Box>
                  )}
                </Box>
              );
            })}
          </Stack>
        );
      }
      case 'operations':
        return (
          <CheckList
            name="operation"
            readOnly={readOnly}
            options={OPERATIONS.map((o) => ({ value: o, label: t(`forms:operation.${o}`) }))}
            value={(value as string[] | undefined) ?? []}
            onChange={setStep}
          />
        );
      case 'production':
        return <ObjectFields path="production" fields={PRODUCTION} value={value as Row} onChange={setStep} errors={errors} readOnly={readOnly} columns={3} />;
      case 'validity':
        return (
          <ObjectFields
            path="validity"
            fields={[{ name: 'years', kind: 'select', required: true, options: [1, 2, 3].map((y) => ({ value: String(y), label: t('requests:wizard.years', { count: y }) })) }]}
            value={value as Row}
            onChange={setStep}
            errors={errors}
            readOnly={readOnly}
          />
        );
      case 'attachments': {
        const list = (value as { id: string; category: string }[] | undefined) ?? [];
        const nameOf = (id: string) => p.files.get(id)?.name ?? uploaded[id];
        const remove = async (a: { id: string; category: string }) => {
          const info = p.files.get(a.id);
          // A file not yet submitted is deleted, so it no longer counts toward the category's limit; a submitted
          // (locked) one stays on record and only leaves the request's data.
          if (!info?.locked) await api.DELETE('/api/attachments/{id}', { params: { path: { id: a.id } }, handleErrors: [404, 409] }).catch(() => undefined);
          await p.persist(list.filter((x) => x.id !== a.id));
          notify.success(t('requests:attachments.removed', { name: info?.name ?? '' }));
        };
        return (
          <Stack gap="4">
            <Text color="fg.muted">
              {attachmentRules.required.length
                ? t('requests:wizard.attachmentsHelp', { required: attachmentRules.required.map((c) => t(`forms:attachmentCategory.${c}`)).join(i18n.language === 'ar' ? '، ' : ', ') })
                : t('requests:wizard.attachmentsHelpOptional')}
            </Text>
            {attachmentRules.allowed.map((c) => (
              <Box key={c} borderWidth="1px" borderRadius="md" p="3" data-testid={`attachments-${c}`}>
                {!readOnly ? (
                  <AttachmentUpload
                    facilityPublicId={p.facilityPublicId}
                    requestId={p.requestId}
                    category={c}
                    label={`${t(`forms:attachmentCategory.${c}`)}${(attachmentRules.required as readonly string[]).includes(c) ? ' *' : ''}`}
                    onUploaded={(a) => {
                      setUploaded((u) => ({ ...u, [a.id]: a.name }));
                      return p.persist([...list, { id: a.id, category: c }]);
                    }}
                    testId={`attachment-${c}`}
                    showUploaded={false}
                  />
                ) : (
                  <Text fontWeight="medium">{t(`forms:attachmentCategory.${c}`)}</Text>
                )}
                <Stack as="ul" gap="1" mt="2" listStyleType="none">
                  {list
                    .filter((a) => a.category === c)
                    .map((a) => (
                      <Flex as="li" key={a.id} gap="2" align="center" data-testid="attachment-item">
                        <a href={`/api/attachments/${a.id}/download`} data-testid="attachment-name">
                          <bdi>{nameOf(a.id) ?? t('requests:wizard.attached')}</bdi>
                        </a>
                        {!readOnly && (
                          <Button size="xs" variant="outline" colorPalette="red" onClick={() => void remove(a)} data-testid="attachment-remove" aria-label={`${t('requests:wizard.remove')} ${nameOf(a.id) ?? ''}`}>
                            {t('requests:wizard.remove')}
                          </Button>
                        )}
                      </Flex>
                    ))}
                </Stack>
              </Box>
            ))}
          </Stack>
        );
      }
    }
  })();
  return (
    <Stack gap="4">
      {stepError && <FieldErrorText message={stepError} />}
      {body}
    </Stack>
  );
}
