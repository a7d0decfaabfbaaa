import { ErrorScreen } from '../../components/ErrorScreen';
import { useOptionalRouteParams } from '../../route-params';
import { AccreditedCbPage } from './AccreditedCbPage';
import { AboutCenterPage, ContactUsPage, PrivacyPage } from './ContentPages';
import { FaqPage } from './FaqPage';
import { HomePage } from './HomePage';
import { HsCodePage } from './HsCodePage';
import { MediaCenterPage } from './MediaCenterPage';
import { OurCustomersPage } from './OurCustomersPage';
import { UserManualPage } from './UserManualPage';

const PAGES: Record<string, () => React.ReactElement> = {
  home: HomePage,
  'user-manual': UserManualPage,
  'hs-code': HsCodePage,
  'accredited-cb': AccreditedCbPage,
  'our-customers': OurCustomersPage,
  'media-center': MediaCenterPage,
  'about-center': AboutCenterPage,
  'contact-us': ContactUsPage,
  privacy: PrivacyPage,
  faq: FaqPage,
};

/** Spec 01 section 2: `public` holds the lazily loaded public pages, so /public/<page> shows the same page. */
export function PublicSplatPage() {
  const { _splat = '' } = useOptionalRouteParams('_splat');
  const Page = PAGES[_splat.replace(/\/+$/, '') || 'home'];
  return Page ? <Page /> : <ErrorScreen status={404} />;
}
