export type Lang = 'ar' | 'en';

export interface TextVersion {
  original: string;
  override: string | null;
  variables: string[];
}

export interface TextEntry {
  namespace: string;
  key: string;
  template: boolean;
  texts: Record<Lang, TextVersion | null>;
}

export interface TextPage {
  totalCount: number;
  items: TextEntry[];
  namespaces: string[];
}

/** Sample values for a template preview: what a reader would see once the variables are filled. */
export const SAMPLES: Record<string, string> = {
  code: '482913',
  minutes: '5',
  hours: '48',
  facility: 'Almarai Foods',
  userName: '1012345678',
  link: 'https://halal.example.sa/delegate-invitation/…',
  count: '3',
};
