import { lazyRouteComponent, type RouteComponent } from '@tanstack/react-router';

/**
 * The public site's routes (spec 01 section 2: open to everyone), for the shell's route table. Each page is its
 * own chunk, loaded when first opened ("lazily loaded public pages").
 */
export const publicRoutes: { path: string; component: RouteComponent }[] = [
  { path: 'home', component: lazyRouteComponent(() => import('./HomePage'), 'HomePage') },
  { path: 'user-manual', component: lazyRouteComponent(() => import('./UserManualPage'), 'UserManualPage') },
  { path: 'public/$', component: lazyRouteComponent(() => import('./PublicSplatPage'), 'PublicSplatPage') },
  { path: 'hs-code', component: lazyRouteComponent(() => import('./HsCodePage'), 'HsCodePage') },
  { path: 'accredited-cb', component: lazyRouteComponent(() => import('./AccreditedCbPage'), 'AccreditedCbPage') },
  { path: 'our-customers', component: lazyRouteComponent(() => import('./OurCustomersPage'), 'OurCustomersPage') },
  { path: 'media-center', component: lazyRouteComponent(() => import('./MediaCenterPage'), 'MediaCenterPage') },
  { path: 'media-center/$newsId', component: lazyRouteComponent(() => import('./NewsItemPage'), 'NewsItemPage') },
  { path: 'about-center', component: lazyRouteComponent(() => import('./ContentPages'), 'AboutCenterPage') },
  { path: 'contact-us', component: lazyRouteComponent(() => import('./ContentPages'), 'ContactUsPage') },
  { path: 'privacy', component: lazyRouteComponent(() => import('./ContentPages'), 'PrivacyPage') },
  { path: 'faq', component: lazyRouteComponent(() => import('./FaqPage'), 'FaqPage') },
  // The page a certificate's or Halal mark's QR code opens; without a code it offers the search box.
  { path: 'verify', component: lazyRouteComponent(() => import('./VerifyPage'), 'VerifyPage') },
  { path: 'verify/$code', component: lazyRouteComponent(() => import('./VerifyPage'), 'VerifyCodePage') },
];
