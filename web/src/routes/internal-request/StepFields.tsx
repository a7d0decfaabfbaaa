import { Box, Button, Checkbox, Flex, Input, NativeSelect, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { FieldErrorText } from '../../components/form/FieldErrorText';
import { FormField } from '../../components/form/FormField';
import type { Errors } from '../../components/form/wizard-errors';

/** One input of a step: text, number, a choice, or a list of lines (technical specifications). */
export interface FieldSpec {
  name: string;
  kind?: 'text' | 'number' | 'select' | 'lines';
  options?: { value: string; label: string }[];
  required?: boolean;
  dir?: 'rtl' | 'ltr';
}

const asText = (v: unknown): string => (v === undefined || v === null ? '' : Array.isArray(v) ? v.join('\n') : String(v));

/** The inputs of one object (a step's record, or one row of a list), named `<path>.<field>` for forms and tests. */
export function ObjectFields(p: {
  path: string;
  fields: FieldSpec[];
  value: Record<string, unknown> | undefined;
  onChange: (v: Record<string, unknown>) => void;
  errors: Errors;
  readOnly?: boolean;
  columns?: number;
}) {
  const { t } = useTranslation(['requests', 'validation']);
  const value = p.value ?? {};
  const set = (name: string, v: unknown) => p.onChange({ ...value, [name]: v });
  return (
    <SimpleGrid columns={{ base: 1, md: p.columns ?? 2 }} gap="4">
      {p.fields.map((f) => {
        const name = `${p.path}.${f.name}`;
        const raw = value[f.name];
        return (
          <FormField key={f.name} label={t(`requests:fields.${f.name}`)} required={f.required} error={p.errors[name]} readOnly={p.readOnly}>
            {f.kind === 'select' ? (
              <NativeSelect.Root disabled={p.readOnly}>
                <NativeSelect.Field name={name} value={asText(raw)} onChange={(e) => set(f.name, e.target.value === '' ? undefined : e.target.value)}>
                  <option value="">{t('requests:wizard.choose')}</option>
                  {f.options?.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            ) : f.kind === 'lines' ? (
              <Textarea
                name={name}
                rows={2}
                value={asText(raw)}
                readOnly={p.readOnly}
                onChange={(e) => set(f.name, e.target.value.split('\n'))}
                onBlur={(e) => set(f.name, e.target.value.split('\n').map((s) => s.trim()).filter(Boolean))}
              />
            ) : (
              <Input
                name={name}
                inputMode={f.kind === 'number' ? 'decimal' : undefined}
                dir={f.dir}
                value={asText(raw)}
                readOnly={p.readOnly}
                onChange={(e) => set(f.name, e.target.value)}
              />
            )}
          </FormField>
        );
      })}
    </SimpleGrid>
  );
}

/** A list of objects with add and remove (branches, trademarks, products). */
export function ListEditor(p: {
  path: string;
  fields: FieldSpec[];
  value: Record<string, unknown>[] | undefined;
  onChange: (v: Record<string, unknown>[]) => void;
  errors: Errors;
  readOnly?: boolean;
  addLabel: string;
  columns?: number;
}) {
  const { t } = useTranslation(['requests', 'validation']);
  const rows = p.value ?? [];
  const listError = p.errors[p.path];
  return (
    <Stack gap="4">
      {listError && <FieldErrorText message={listError} />}
      {rows.map((row, i) => (
        <Box key={i} borderWidth="1px" borderRadius="md" p="4" data-testid={`${p.path}-row`}>
          <Flex justify="space-between" mb="2">
            <Text fontWeight="semibold">{t('requests:wizard.item', { n: i + 1 })}</Text>
            {!p.readOnly && (
              <Button size="xs" variant="ghost" colorPalette="red" onClick={() => p.onChange(rows.filter((_, j) => j !== i))}>
                {t('requests:wizard.remove')}
              </Button>
            )}
          </Flex>
          <ObjectFields path={`${p.path}.${i}`} fields={p.fields} value={row} onChange={(v) => p.onChange(rows.map((r, j) => (j === i ? v : r)))} errors={p.errors} readOnly={p.readOnly} columns={p.columns} />
        </Box>
      ))}
      {!p.readOnly && (
        <Button alignSelf="start" variant="outline" onClick={() => p.onChange([...rows, {}])} data-testid={`${p.path}-add`}>
          {p.addLabel}
        </Button>
      )}
    </Stack>
  );
}

/** Tick boxes over a fixed list (operations, categories). */
export function CheckList(p: { name: string; options: { value: string; label: string }[]; value: string[]; onChange: (v: string[]) => void; readOnly?: boolean }) {
  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap="2">
      {p.options.map((o) => (
        <Checkbox.Root
          key={o.value}
          checked={p.value.includes(o.value)}
          disabled={p.readOnly}
          onCheckedChange={(e) => p.onChange(e.checked ? [...p.value, o.value] : p.value.filter((v) => v !== o.value))}
          data-testid={`${p.name}-${o.value}`}
        >
          <Checkbox.HiddenInput name={p.name} value={o.value} />
          <Checkbox.Control />
          <Checkbox.Label>{o.label}</Checkbox.Label>
        </Checkbox.Root>
      ))}
    </SimpleGrid>
  );
}
