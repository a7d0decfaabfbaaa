import type { ApiResponse } from '../../api/query';

export type Lang = 'ar' | 'en';
export type TextEntry = ApiResponse<'/api/admin/texts'>['items'][number];

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
