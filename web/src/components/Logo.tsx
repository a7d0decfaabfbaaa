import { useTranslation } from 'react-i18next';

/**
 * The portal logo at its fixed size (spec 01 section 9: 176 by 46). Drawn inline rather than as an image file so
 * its Arabic and Latin lines use the page's self-hosted fonts.
 */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  const { t } = useTranslation('shell');
  const ink = inverted ? '#ffffff' : '#0b5e40';
  const star = inverted ? '#0b5e40' : '#ffffff';
  return (
    <svg width="176" height="46" viewBox="0 0 176 46" role="img" aria-label={t('appName')} style={{ display: 'block', flexShrink: 0, direction: 'ltr' }}>
      <circle cx="23" cy="23" r="21" fill={inverted ? '#ffffff' : '#0b5e40'} />
      <g fill={star} transform="translate(23 23)">
        <rect x="-9" y="-9" width="18" height="18" />
        <rect x="-9" y="-9" width="18" height="18" transform="rotate(45)" />
      </g>
      <circle cx="23" cy="23" r="5" fill={inverted ? '#ffffff' : '#0b5e40'} />
      {/* textLength keeps both lines inside the fixed 176 px whatever the font metrics. */}
      <text x="52" y="20" fill={ink} fontSize="13" fontWeight="700" fontFamily="'Noto Sans Arabic', sans-serif" textLength="120" lengthAdjust="spacingAndGlyphs">
        المركز الوطني للحلال
      </text>
      <text x="52" y="37" fill={ink} fontSize="11" fontWeight="600" fontFamily="Inter, sans-serif" textLength="120" lengthAdjust="spacingAndGlyphs">
        National Halal Center
      </text>
    </svg>
  );
}
