/**
 * The messages the form schemas give, as keys of the `validation` namespace (locales/<lang>/validation.json): the
 * shell's general messages of spec 01 section 5 where one fits (`required`, `productExists`, ...), and the form's
 * own under `form.`. A schema's issue message IS the key, so the same schema yields the same bilingual text on the web
 * (`t('validation:' + key)`) and on the server (server/plugins/errors.ts turns a key-shaped message into
 * `validation:<key>`). The texts carry no placeholders: the limits are constants of the spec and are written out in
 * the text, which keeps the keys usable from both sides without passing parameters through zod issues.
 */
export const FormMessage = {
  required: 'required',
  invalid: 'invalid',
  integerOnly: 'digitsOnly',
  nameTooShort: 'form.nameTooShort',
  nameTooLong: 'form.nameTooLong',
  textTooLong: 'form.textTooLong',
  arabicLettersOnly: 'arabicOnly',
  englishLettersOnly: 'englishOnly',
  arabicNameLike: 'form.arabicNameLike',
  englishNameLike: 'form.englishNameLike',
  nameLike: 'nameLike',
  addressText: 'form.addressText',
  weightRange: 'form.weightRange',
  grossBelowNet: 'totalWeightAtLeastNet',
  revenueFormat: 'form.revenueFormat',
  areaFormat: 'form.areaFormat',
  areaPositive: 'form.areaPositive',
  employeesRange: 'form.employeesRange',
  productionLinesRange: 'form.productionLinesRange',
  haccpRange: 'form.haccpRange',
  shiftsRange: 'form.shiftsRange',
  hsCodeFormat: 'form.hsCodeFormat',
  hsCodeNotHalal: 'form.hsCodeNotHalal',
  hsCodeDuplicate: 'form.hsCodeDuplicate',
  hsCodeRequired: 'form.hsCodeRequired',
  productNumberFormat: 'form.productNumberFormat',
  unitInvalid: 'form.unitInvalid',
  categoryInvalid: 'form.categoryInvalid',
  categoryRequired: 'form.categoryRequired',
  categoryDuplicate: 'form.categoryDuplicate',
  subCategoryMismatch: 'form.subCategoryMismatch',
  productCategoryNotSelected: 'form.productCategoryNotSelected',
  operationInvalid: 'form.operationInvalid',
  operationRequired: 'form.operationRequired',
  operationDuplicate: 'form.operationDuplicate',
  productRequired: 'productRequired',
  productDuplicate: 'productExists',
  tooManyProducts: 'form.tooManyProducts',
  trademarkDuplicate: 'trademarkExists',
  brandUnknown: 'form.brandUnknown',
  brandWithoutProducts: 'brandNeedsProducts',
  branchRequired: 'extraAddressRequired',
  crNumberFormat: 'form.crNumberFormat',
  unifiedNumberFormat: 'form.unifiedNumberFormat',
  zipCodeFormat: 'form.zipCodeFormat',
  buildingNumberFormat: 'form.buildingNumberFormat',
  additionalNumberFormat: 'form.additionalNumberFormat',
  countryMustBeSaudi: 'form.countryMustBeSaudi',
  validityRange: 'form.validityRange',
  attachmentRequired: 'form.attachmentRequired',
  attachmentTooMany: 'form.attachmentTooMany',
  attachmentCategoryNotAllowed: 'form.attachmentCategoryNotAllowed',
  attachmentDuplicate: 'form.attachmentDuplicate',
  agreementRequired: 'agreementRequired',
  tooManyItems: 'form.tooManyItems',
} as const;
export type FormMessageKey = (typeof FormMessage)[keyof typeof FormMessage];

/** Every key above, for the locale test that checks each has a text in both languages. */
export const FORM_MESSAGE_KEYS: readonly FormMessageKey[] = Object.values(FormMessage);

/** One problem of a form, ready to show: the dotted field path and the `validation` key. */
export interface FormIssue {
  /** Dotted path of the field, e.g. `products.2.netWeight`; '' for the whole form. */
  path: string;
  /** Key in the `validation` namespace, e.g. `form.weightRange`. */
  message: string;
}

const KEY_SHAPED = /^[a-zA-Z][\w.]*$/;

/**
 * The `validation` key of a zod issue: the schemas put their key in the message; anything else (a zod default,
 * which only appears for shapes the schemas do not customise) becomes `form.invalid`.
 */
export function messageKeyOf(issue: { message: string; code?: string }): string {
  if (KEY_SHAPED.test(issue.message) && !issue.message.includes(' ')) return issue.message;
  return FormMessage.invalid;
}

/** Zod issues as FormIssues. */
export function formIssuesOf(
  issues: readonly { path: readonly PropertyKey[]; message: string; code?: string }[],
  prefix: readonly PropertyKey[] = [],
): FormIssue[] {
  return issues.map((i) => ({ path: [...prefix, ...i.path].map(String).join('.'), message: messageKeyOf(i) }));
}
