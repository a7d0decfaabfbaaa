import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Field, Flex, Input, type FlexProps, type InputProps } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** A list's filters in the URL (routes/records/url-filters useUrlFilters): a submit writes them there. */
export type UrlFilters<K extends string> = {
  values: Record<K, string>;
  set: (next: Partial<Record<K, string>> & { page?: number }) => void;
};

type Box = {
  /** The search box's label (translated): shown above the box, or with `hideLabel` its accessible name only. */
  label: string;
  hideLabel?: boolean;
  /** The search landmark's accessible name; a page with one search leaves the default ("Search"). */
  name?: string;
  placeholder?: string;
  /** The box's data-testid (what e2e tests fill). */
  testId: string;
  /** What else the box is (name, type, maxLength, width, background). */
  inputProps?: InputProps;
  /** Fields of the same search before the box (what the text is searched by). */
  before?: ReactNode;
  /** Fields of the same search after the box (more filters the same submit writes). */
  children?: ReactNode;
};

/** Submitted: the trimmed text goes to `param` of the URL (with `also`, the other fields' drafts), page back to 1. */
type Submitted<K extends string> = {
  filters: UrlFilters<K>;
  param: NoInfer<K>;
  also?: () => Partial<Record<NoInfer<K>, string>>;
  submitTestId?: string;
  /** Offers "Clear": empties the box and every field the submit writes (`onClear` empties the page's drafts). */
  onClear?: () => void;
};

/** Live (the public pages, which keep no filters in the URL): the page reads the text as it is typed; no submit. */
type Live = { value: string; onValueChange: (text: string) => void };

export type ListSearchProps<K extends string> = Box & (Submitted<K> | Live) & Omit<FlexProps, keyof Box | 'onSubmit' | 'as'>;

/**
 * The search form of a list page: one `role="search"` landmark with an accessible name, its labelled search box, the
 * page's other filter fields, and a Search button that writes the list's URL (so a reload, a shared link or the back
 * button shows the same list). The box keeps a draft until submitted, and follows the URL when the URL changes.
 */
export function ListSearch<K extends string>(props: ListSearchProps<K>) {
  const { t } = useTranslation('common');
  const { label, hideLabel, name, placeholder, testId, inputProps, before, children, ...rest } = props;
  const live = 'onValueChange' in props;
  const { filters, param, also, submitTestId, onClear, value: _value, onValueChange: _change, ...layout } = rest as Partial<Submitted<K> & Live> & FlexProps;
  const urlText = live ? '' : (filters?.values[param as K] ?? '');
  const [draft, setDraft] = useState(urlText);
  useEffect(() => setDraft(urlText), [urlText]);
  const text = live ? props.value : draft;
  const setText = live ? props.onValueChange : setDraft;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!live) filters!.set({ ...also?.(), [param as K]: text.trim() } as Partial<Record<K, string>>);
  };
  const clear = () => {
    setDraft('');
    onClear?.();
    const emptied = Object.fromEntries(Object.keys({ ...also?.(), [param as K]: '' }).map((k) => [k, '']));
    filters!.set(emptied as Partial<Record<K, string>>);
  };
  return (
    <Flex as="form" role="search" aria-label={name ?? t('actions.search')} onSubmit={submit} gap="3" wrap="wrap" align="end" {...layout}>
      {before}
      <Field.Root flex="1" minW="44">
        {!hideLabel && <Field.Label>{label}</Field.Label>}
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={placeholder}
          aria-label={hideLabel ? label : undefined}
          data-testid={testId}
          {...inputProps}
        />
      </Field.Root>
      {children}
      {!live && (
        <Button type="submit" colorPalette="brand" data-testid={submitTestId ?? 'filter-submit'}>
          {t('actions.search')}
        </Button>
      )}
      {!live && onClear && (
        <Button variant="outline" onClick={clear}>
          {t('actions.clear')}
        </Button>
      )}
    </Flex>
  );
}
