import { lazyRouteComponent } from '@tanstack/react-router';
import { createElement } from 'react';

const TextsPage = lazyRouteComponent(() => import('./TextsPage'), 'TextsPage');
const InsteadPage = lazyRouteComponent(() => import('./InsteadPage'), 'InsteadPage');

/** language-management, text-template-management, and the account, saas and openiddict explanations (issue 15 item 5). */
export const textScreens = {
  languageManagement: () => createElement(TextsPage, { mode: 'language' }),
  textTemplates: () => createElement(TextsPage, { mode: 'templates' }),
  account: () => createElement(InsteadPage, { topic: 'account' }),
  saas: () => createElement(InsteadPage, { topic: 'saas' }),
  openiddict: () => createElement(InsteadPage, { topic: 'openiddict' }),
};
