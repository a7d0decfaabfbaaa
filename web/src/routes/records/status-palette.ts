/** The badge colour of a certificate's or mark's status as a person sees it (the word carries the meaning). */
export const statusPalette = (s: string) =>
  s === 'active' ? 'green' : s === 'expiringSoon' || s === 'validSoon' ? 'orange' : s === 'suspended' || s === 'cancelled' || s === 'withdrawn' ? 'red' : 'gray';
