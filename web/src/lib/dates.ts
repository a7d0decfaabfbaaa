/** The portal's dates (machines/dates.ts, shared with the server's messages): imported by the screens from here. */
export { formatDate, PORTAL_TIME_ZONE, type DateStyle } from '../../../machines/dates';
